package io.fencedlock.testkit.postgres;

import io.fencedlock.testkit.support.TempDirs;
import io.fencedlock.testkit.support.Timing;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A private PostgreSQL server for tests and the chaos harness: initdb into a temp directory (trust
 * auth), started on a free loopback port with fsync on, stopped and deleted by {@link #close()} or,
 * failing that, by a shutdown hook. Never uses a server someone else started. Runs PostgreSQL as
 * user {@code postgres} through {@code runuser} when this JVM is root, since PostgreSQL refuses to
 * run as root.
 *
 * <p>Everything is done with PostgreSQL's own tools from the same bin directory ({@code initdb},
 * {@code pg_ctl}, {@code pg_isready}, {@code createdb}), so the test kit carries no JDBC driver;
 * callers connect with the URLs of {@link #createDatabase()}. Thread-safe.
 */
public final class PostgresServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(PostgresServer.class);
  private static final String OS_USER = "postgres";
  private static final int START_ATTEMPTS = 3;

  private final Path bin;
  private final Path baseDir;
  private final int port;
  private final AtomicInteger databases = new AtomicInteger();
  private final AtomicBoolean closed = new AtomicBoolean();
  private final Thread shutdownHook;

  private PostgresServer(Path bin, Path baseDir, int port) {
    this.bin = bin;
    this.baseDir = baseDir;
    this.port = port;
    this.shutdownHook = new Thread(this::stopAndDelete, "postgres-test-server-cleanup");
    Runtime.getRuntime().addShutdownHook(shutdownHook);
  }

  /**
   * Creates and starts a fresh server; returns once it accepts connections.
   *
   * @throws IllegalStateException if PostgreSQL is not installed (the message says how to install
   *     it) or does not start
   */
  public static PostgresServer start() {
    Path bin = PostgresBinaries.find();
    Path baseDir = createBaseDir();
    PostgresServer server = null;
    try {
      run(
          bin,
          baseDir,
          "initdb",
          "-D",
          dataDir(baseDir).toString(),
          "-A",
          "trust",
          "-U",
          OS_USER,
          "-E",
          "UTF8",
          "--no-sync",
          "--no-instructions");
      server = startOnFreePort(bin, baseDir);
      server.awaitConnections();
      log.info("PostgreSQL from {} listening on 127.0.0.1:{}", bin, server.port);
      return server;
    } catch (RuntimeException e) {
      if (server != null) {
        server.close();
      } else {
        deleteRecursively(baseDir);
      }
      throw e;
    }
  }

  /**
   * Creates an empty database and returns its JDBC URL ({@code jdbc:postgresql://...}).
   *
   * @throws IllegalStateException if {@code createdb} fails
   */
  public String createDatabase() {
    String name = "fencedlock_" + databases.incrementAndGet();
    run(
        bin,
        baseDir,
        "createdb",
        "-h",
        "127.0.0.1",
        "-p",
        Integer.toString(port),
        "-U",
        OS_USER,
        name);
    return url(name);
  }

  /** The loopback port the server listens on. */
  public int port() {
    return port;
  }

  /** Stops the server and deletes its directory. Idempotent. */
  @Override
  public void close() {
    stopAndDelete();
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException e) {
      // The JVM is already shutting down; the hook will find the work done.
      log.debug("shutdown in progress, hook stays registered", e);
    }
  }

  private String url(String database) {
    return "jdbc:postgresql://127.0.0.1:" + port + "/" + database + "?user=" + OS_USER;
  }

  private static PostgresServer startOnFreePort(Path bin, Path baseDir) {
    IllegalStateException failure = null;
    for (int attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
      int port = freePort();
      try {
        run(
            bin,
            baseDir,
            "pg_ctl",
            "start",
            "-w",
            "-t",
            "60",
            "-D",
            dataDir(baseDir).toString(),
            "-l",
            baseDir.resolve("postgres.log").toString(),
            "-o",
            "-c listen_addresses=127.0.0.1 -c unix_socket_directories="
                + baseDir
                + " -p "
                + port
                + " -c fsync=on");
        return new PostgresServer(bin, baseDir, port);
      } catch (IllegalStateException e) {
        // Most likely someone took the port between our probe and the server's bind; retry.
        failure = e;
      }
    }
    throw failure;
  }

  /** Polls {@code pg_isready} on the TCP port (what clients use) until it answers, bounded. */
  private void awaitConnections() {
    long deadline = System.nanoTime() + Timing.PROCESS.toNanos();
    List<String> probe =
        List.of("-h", "127.0.0.1", "-p", Integer.toString(port), "-U", OS_USER, "-t", "5");
    while (exitCode(bin, baseDir, "pg_isready", probe.toArray(String[]::new)) != 0) {
      if (System.nanoTime() - deadline > 0) {
        throw new IllegalStateException(
            "PostgreSQL not accepting connections on port " + port + " within " + Timing.PROCESS);
      }
      pause(100);
    }
  }

  private void stopAndDelete() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    try {
      run(
          bin,
          baseDir,
          "pg_ctl",
          "stop",
          "-m",
          "fast",
          "-w",
          "-t",
          "60",
          "-D",
          dataDir(baseDir).toString());
    } catch (RuntimeException e) {
      log.warn("stopping PostgreSQL in {} failed", baseDir, e);
    } finally {
      deleteRecursively(baseDir);
    }
  }

  private static Path dataDir(Path baseDir) {
    return baseDir.resolve("data");
  }

  private static Path createBaseDir() {
    try {
      Path dir = Files.createTempDirectory("fencedlock-pg-");
      if (isRoot()) {
        UserPrincipalLookupService users = dir.getFileSystem().getUserPrincipalLookupService();
        Files.setOwner(dir, users.lookupPrincipalByName(OS_USER));
      }
      return dir;
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot prepare a PostgreSQL directory (as root, user " + OS_USER + " must exist)", e);
    }
  }

  /** Runs one PostgreSQL tool to completion, failing with its output if it exits non-zero. */
  private static void run(Path bin, Path baseDir, String tool, String... args) {
    Path output = outputFile(baseDir, tool);
    int exit = exitCode(bin, baseDir, tool, output, args);
    if (exit != 0) {
      throw new IllegalStateException(
          tool + " " + String.join(" ", args) + " failed with " + exit + ":\n" + read(output));
    }
  }

  private static int exitCode(Path bin, Path baseDir, String tool, String... args) {
    return exitCode(bin, baseDir, tool, outputFile(baseDir, tool), args);
  }

  /** Runs one PostgreSQL tool to completion, as user postgres when we are root. */
  private static int exitCode(Path bin, Path baseDir, String tool, Path output, String... args) {
    List<String> command = new ArrayList<>();
    if (isRoot()) {
      command.addAll(List.of("runuser", "-u", OS_USER, "--"));
    }
    command.add(bin.resolve(tool).toString());
    command.addAll(List.of(args));
    try {
      Process process =
          new ProcessBuilder(command)
              .directory(baseDir.toFile())
              .redirectErrorStream(true)
              .redirectOutput(output.toFile())
              .start();
      if (!process.waitFor(Timing.PROCESS.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
        throw new IllegalStateException(tool + " did not finish in " + Timing.PROCESS);
      }
      return process.exitValue();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run " + command, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while running " + tool, e);
    }
  }

  private static Path outputFile(Path baseDir, String tool) {
    return baseDir.resolve(tool + "-" + System.nanoTime() + ".out");
  }

  private static String read(Path output) {
    try {
      return Files.readString(output);
    } catch (IOException e) {
      return "(output unreadable: " + e + ")";
    }
  }

  private static void pause(long millis) {
    try {
      TimeUnit.MILLISECONDS.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for PostgreSQL", e);
    }
  }

  private static boolean isRoot() {
    return "root".equals(System.getProperty("user.name"));
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("no free port", e);
    }
  }

  /** Deletes the server's directory; a failure is logged, not thrown, so closing goes on. */
  private static void deleteRecursively(Path dir) {
    try {
      TempDirs.deleteRecursively(dir);
    } catch (UncheckedIOException e) {
      log.warn("could not delete {}", dir, e);
    }
  }
}
