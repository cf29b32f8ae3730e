package io.fencedlock.cli.exec;

import io.fencedlock.redlock.Lease;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The command {@code exec} runs under a lease: started with the lease in its environment, its
 * standard streams inherited, and stopped (SIGTERM, then SIGKILL after the grace) when the
 * lease is lost or exec is told to stop. Thread-safe.
 */
final class ChildUnderLock {
  private final Process process;
  private final Duration grace;
  private volatile boolean lost;
  private boolean stopping; // guarded by this

  private ChildUnderLock(Process process, Duration grace) {
    this.process = process;
    this.grace = grace;
  }

  static ChildUnderLock start(List<String> command, Map<String, String> env, Lease lease, Duration grace)
      throws IOException {
    ProcessBuilder builder = new ProcessBuilder(command).inheritIO();
    builder.environment().putAll(env);
    builder.environment().put("FENCEDLOCK_RESOURCE", lease.resource());
    builder.environment().put("FENCEDLOCK_TOKEN", lease.isFenced() ? Long.toString(lease.fencingToken()) : "");
    builder.environment().put("FENCEDLOCK_OWNER", lease.ownerId());
    return new ChildUnderLock(builder.start(), grace);
  }

  /** The lease was lost: stop the command on a thread of its own (the caller must not block). */
  void stopInBackground() {
    lost = true;
    Thread stopper = new Thread(this::stop, "fencedlock-exec-stop");
    stopper.setDaemon(true);
    stopper.start();
  }

  /** SIGTERM, then SIGKILL once the grace is over; returns when the command is gone. Idempotent. */
  void stop() {
    synchronized (this) {
      if (stopping || !process.isAlive()) {
        return;
      }
      stopping = true;
    }
    process.destroy();
    try {
      if (!process.waitFor(grace.toNanos(), TimeUnit.NANOSECONDS)) {
        process.destroyForcibly();
        process.waitFor();
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  /** Waits for the command to end and returns its exit status. */
  int awaitExit() {
    while (true) {
      try {
        return process.waitFor();
      } catch (InterruptedException e) {
        // exec is being stopped: the shutdown hook ends the command; keep waiting for it
        Thread.currentThread().interrupt();
        stop();
      }
    }
  }

  boolean stoppedBecauseLost() {
    return lost;
  }
}
