package io.fencedlock.faultproxy;

import com.google.gson.Gson;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CountDownLatch;
import org.slf4j.LoggerFactory;

/**
 * Runs the fault proxy standalone, like {@code toxiproxy-server}: {@code FaultProxyMain [--host
 * HOST] [--port PORT] [--seed SEED]}, default 127.0.0.1:8474. Prints the API URL once listening and
 * stops cleanly on SIGTERM or Ctrl-C.
 *
 * <p>Not instantiable; {@link #parse} is pure and thread-safe.
 */
public final class FaultProxyMain {

  static final String USAGE =
      """
      usage: FaultProxyMain [--host HOST] [--port PORT] [--seed SEED]
        --host HOST   address the HTTP API binds (default 127.0.0.1)
        --port PORT   API port, 0 for any free one (default 8474)
        --seed SEED   fixes toxicity draws and jitter (default: random, printed at start)\
      """;

  private FaultProxyMain() {}

  /**
   * The repository of this server's container image (the test kit's {@code JavaImage} builds it).
   */
  public static final String IMAGE_REPOSITORY = "fencedlock/fault-proxy";

  /**
   * Classes whose code sources (jars or class directories) make up this program's runtime class
   * path: its own and its two libraries' (Gson, SLF4J's API, which without a provider logs
   * nothing). For running it elsewhere, such as in a container image.
   */
  public static List<Class<?>> runtimeClassPath() {
    return List.of(FaultProxyMain.class, Gson.class, LoggerFactory.class);
  }

  /**
   * What follows {@code java -cp <class path>} in this server's container image, as Toxiproxy's
   * image runs: the API on every interface at Toxiproxy's port 8474. A container's command may add
   * {@code --seed N}.
   */
  public static List<String> containerArgs() {
    return List.of(
        "-XX:+UseSerialGC", FaultProxyMain.class.getName(), "--host", "0.0.0.0", "--port", "8474");
  }

  /** Parsed command line. Immutable. */
  record Options(String host, int port, OptionalLong seed) {}

  public static void main(String[] args) {
    Optional<Options> options;
    try {
      options = parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("error: " + e.getMessage());
      System.err.println(USAGE);
      System.exit(2);
      return;
    }
    if (options.isEmpty()) {
      System.out.println(USAGE);
      return;
    }
    run(options.get(), System.out);
  }

  /**
   * Parses the arguments; empty means help was asked for.
   *
   * @throws IllegalArgumentException naming the offending argument
   */
  static Optional<Options> parse(String[] args) {
    String host = "127.0.0.1";
    int port = 8474;
    OptionalLong seed = OptionalLong.empty();
    for (int i = 0; i < args.length; i++) {
      String flag = args[i];
      if (flag.equals("-h") || flag.equals("--help")) {
        return Optional.empty();
      }
      if (!flag.equals("--host") && !flag.equals("--port") && !flag.equals("--seed")) {
        throw new IllegalArgumentException("unknown argument " + flag);
      }
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException(flag + " needs a value");
      }
      String value = args[++i];
      switch (flag) {
        case "--host" -> host = value;
        case "--port" -> port = parsePort(value);
        default -> seed = OptionalLong.of(parseSeed(value));
      }
    }
    return Optional.of(new Options(host, port, seed));
  }

  private static void run(Options options, PrintStream out) {
    InetSocketAddress address = new InetSocketAddress(options.host(), options.port());
    FaultProxyServer server;
    try {
      server =
          options.seed().isPresent()
              ? FaultProxyServer.start(address, options.seed().getAsLong())
              : FaultProxyServer.start(address);
    } catch (UncheckedIOException e) {
      System.err.println("error: " + e.getMessage() + ": " + e.getCause().getMessage());
      System.exit(1);
      return;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  server.close();
                  out.println("fault proxy stopped");
                  out.flush();
                  stopped.countDown();
                },
                "fault-proxy-shutdown"));
    out.println("fault proxy listening on " + server.url() + " (seed " + server.seed() + ")");
    out.flush();
    awaitQuietly(stopped);
  }

  private static void awaitQuietly(CountDownLatch stopped) {
    try {
      stopped.await();
    } catch (InterruptedException e) {
      // Interrupting main means "stop": return and let the shutdown hook close the server.
      Thread.currentThread().interrupt();
    }
  }

  private static int parsePort(String value) {
    try {
      int port = Integer.parseInt(value);
      if (port >= 0 && port <= 65535) {
        return port;
      }
    } catch (NumberFormatException e) {
      // reported below with the same message as an out-of-range port
    }
    throw new IllegalArgumentException("--port must be a number from 0 to 65535, got " + value);
  }

  private static long parseSeed(String value) {
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--seed must be a whole number, got " + value, e);
    }
  }
}
