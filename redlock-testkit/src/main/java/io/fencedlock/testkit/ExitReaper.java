package io.fencedlock.testkit;

/**
 * Puts a child process that a harness started itself (a client JVM, a storage service) under the
 * test kit's exit hook, beside its redis-servers: if the JVM exits without closing its fixtures
 * (Ctrl-C, SIGTERM, {@code System.exit}), the process is continued and killed. A client stopped
 * with SIGSTOP when its harness dies would otherwise stay behind, stopped, forever. Thread-safe.
 */
public final class ExitReaper {
  private ExitReaper() {}

  /** Kills {@code process} at JVM exit if it still runs then. */
  public static void track(Process process) {
    ProcessRegistry.register(process);
  }
}
