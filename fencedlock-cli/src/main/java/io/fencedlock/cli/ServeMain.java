package io.fencedlock.cli;

import java.io.PrintStream;
import java.net.URI;
import java.util.concurrent.CountDownLatch;

/**
 * {@code ./fencedlock serve [--port N]}: starts five local Redis nodes and the fenced storage
 * service (SQLite in a temp dir) and keeps them running for manual use with curl. Prints the
 * service URL on a line {@code storage service: http://127.0.0.1:PORT}, the node URIs
 * (comma-separated, as {@code exec --nodes} takes them) and curl examples, then waits. Ctrl-C or
 * SIGTERM runs a shutdown hook that stops the service and the nodes, deletes the temp dir and
 * prints {@code stopped}. Exit code 2 for bad options, 1 if it cannot start.
 */
public final class ServeMain {
  private ServeMain() {}

  /** Entry point. */
  public static void main(String[] args) {
    ServeArgs parsed;
    try {
      parsed = ServeArgs.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("fencedlock serve: " + e.getMessage());
      System.err.print(ServeArgs.USAGE);
      System.exit(2);
      return;
    }
    if (parsed.help()) {
      System.out.print(ServeArgs.USAGE);
      return;
    }
    DemoEnvironment env;
    try {
      env = DemoEnvironment.start(parsed.port());
    } catch (RuntimeException e) {
      System.err.println("fencedlock serve: cannot start: " + e);
      System.exit(1);
      return;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(new Thread(() -> stop(env, stopped), "fencedlock-serve-shutdown"));
    printBanner(env, System.out);
    awaitStop(stopped);
  }

  private static void printBanner(DemoEnvironment env, PrintStream out) {
    URI url = env.storageUrl();
    String object = url + "/objects/greeting";
    out.println("storage service: " + url);
    // Comma-separated: the form exec --nodes and FENCEDLOCK_NODES take.
    out.println("redis nodes:     " + String.join(",", env.nodeUris()));
    out.println("database:        " + env.databaseFile() + " (deleted on exit)");
    out.println();
    out.println("Try it from another terminal:");
    out.println("  # the holder of fencing token 2 writes: 200 OK");
    out.println(
        "  curl -i -X PUT "
            + object
            + " -H 'Fencing-Token: 2' -H 'Lock-Owner: client-2' --data-binary 'hello from client"
            + " 2'");
    out.println("  # a stale holder writes with token 1: 409 Conflict, current token 2");
    out.println(
        "  curl -i -X PUT "
            + object
            + " -H 'Fencing-Token: 1' -H 'Lock-Owner: client-1' --data-binary 'late write'");
    out.println("  # read it back: the value, with its token and owner in headers");
    out.println("  curl -i " + object);
    out.println("  curl " + url + "/stats");
    out.println();
    out.println("Ctrl-C or SIGTERM stops the service and the Redis nodes.");
    out.flush();
  }

  private static void stop(DemoEnvironment env, CountDownLatch stopped) {
    try {
      env.close();
      System.out.println("stopped");
    } catch (RuntimeException e) {
      // Report it: the JVM is exiting, so there is nobody left to throw to.
      System.err.println("fencedlock serve: stopping failed: " + e);
      e.printStackTrace();
    } finally {
      System.out.flush();
      stopped.countDown();
    }
  }

  private static void awaitStop(CountDownLatch stopped) {
    try {
      stopped.await();
    } catch (InterruptedException e) {
      // Nobody interrupts main; if it happens, the shutdown hook still stops everything.
      Thread.currentThread().interrupt();
    }
  }
}
