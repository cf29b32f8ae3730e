package io.fencedlock.storage.postgres;

import static org.awaitility.Awaitility.await;

import io.fencedlock.testkit.support.TempDirs;
import io.fencedlock.testkit.support.Timing;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A private PostgreSQL server for tests: initdb into a temp directory (trust auth), started on a
 * free loopback port with fsync on, stopped and deleted by {@link #close()} or, failing that, by a
 * shutdown hook. Never uses a server someone else started. Runs PostgreSQL as user {@code postgres}
 * through {@code runuser} when this JVM is root, since PostgreSQL refuses to run as root.
 * Thread-safe.
 */
final class PostgresServer implements AutoCloseable {
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
   * Creates and starts a fresh server.
   *
   * @throws IllegalStateException if PostgreSQL is not installed or does not start
   */
  static PostgresServer start() {
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

  /** Creates an empty database and returns its JDBC URL. */
  String createDatabase() {
    String name = "fencedlock_" + databases.incrementAndGet();
    try (Connection connection = DriverManager.getConnection(url("postgres"));
        Statement statement = connection.createStatement()) {
      statement.execute("CREATE DATABASE " + name);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot create database " + name, e);
    }
    return url(name);
  }

  int port() {
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

  private void awaitConnections() {
    await("PostgreSQL accepting connections on port " + port)
        .atMost(Timing.PROCESS)
        .pollInterval(100, TimeUnit.MILLISECONDS)
        .ignoreExceptionsInstanceOf(SQLException.class)
        .until(
            () -> {
              try (Connection connection = DriverManager.getConnection(url("postgres"))) {
                return connection.isValid(5);
              }
            });
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

  /** Runs one PostgreSQL tool to completion, as user postgres when we are root. */
  private static void run(Path bin, Path baseDir, String tool, String... args) {
    List<String> command = new ArrayList<>();
    if (isRoot()) {
      command.addAll(List.of("runuser", "-u", OS_USER, "--"));
    }
    command.add(bin.resolve(tool).toString());
    command.addAll(List.of(args));
    Path output = baseDir.resolve(tool + "-" + System.nanoTime() + ".out");
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
      if (process.exitValue() != 0) {
        throw new IllegalStateException(
            String.join(" ", command)
                + " failed with "
                + process.exitValue()
                + ":\n"
                + Files.readString(output));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run " + command, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while running " + tool, e);
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
