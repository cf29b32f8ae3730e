package io.fencedlock.cli.exec;

import io.fencedlock.redlock.Lease;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The command {@code exec} runs under a lease: started with the lease in its environment, its
 * standard streams inherited, and stopped when the lease is lost or exec is told to stop: SIGTERM
 * to it and every process it started, then SIGKILL to those still running once the grace is over.
 * Thread-safe.
 */
final class ChildUnderLock {
  private final Process process;
  private volatile boolean lost;
  private boolean stopping; // guarded by this

  private ChildUnderLock(Process process) {
    this.process = process;
  }

  static ChildUnderLock start(List<String> command, Map<String, String> env, Lease lease)
      throws IOException {
    ProcessBuilder builder = new ProcessBuilder(command).inheritIO();
    builder.environment().putAll(env);
    builder.environment().put("FENCEDLOCK_RESOURCE", lease.resource());
    builder
        .environment()
        .put("FENCEDLOCK_TOKEN", lease.isFenced() ? Long.toString(lease.fencingToken()) : "");
    builder.environment().put("FENCEDLOCK_OWNER", lease.ownerId());
    return new ChildUnderLock(builder.start());
  }

  /**
   * The lease was lost: stops the command on a thread of its own (the caller runs on the client's
   * threads and must not block), killing it at the latest when {@code validityLeft} is over, even
   * if the grace is longer: past it, another client may hold the lock.
   */
  void stopInBackground(Duration grace, Duration validityLeft) {
    lost = true;
    Duration bound = grace.compareTo(validityLeft) < 0 ? grace : validityLeft;
    Thread stopper = new Thread(() -> stop(bound), "fencedlock-exec-stop");
    stopper.setDaemon(true);
    stopper.start();
  }

  /**
   * SIGTERM to the command and its descendants, SIGKILL after {@code grace}; returns when it is
   * gone.
   */
  void stop(Duration grace) {
    synchronized (this) {
      if (stopping || !process.isAlive()) {
        return;
      }
      stopping = true;
    }
    List<ProcessHandle> family = family();
    family.forEach(ProcessHandle::destroy);
    boolean exited = waitForUninterruptibly(grace);
    family().forEach(ProcessHandle::destroyForcibly); // also what the command started meanwhile
    family.forEach(ProcessHandle::destroyForcibly);
    if (!exited) {
      waitForUninterruptibly(Duration.ofDays(1));
    }
  }

  /**
   * The command and every process it started (those that left its process tree cannot be found).
   */
  private List<ProcessHandle> family() {
    List<ProcessHandle> all = new java.util.ArrayList<>(process.descendants().toList());
    all.add(process.toHandle());
    return all;
  }

  /** Waits for the command to end and returns its exit status; an interrupt is kept, not obeyed. */
  int awaitExit() {
    waitForUninterruptibly(Duration.ofDays(365));
    return process.exitValue();
  }

  private boolean waitForUninterruptibly(Duration bound) {
    boolean interrupted = false;
    long deadline = System.nanoTime() + bound.toNanos();
    try {
      while (true) {
        try {
          return process.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** The command's exit status if it has ended, else -1. */
  int exitStatusIfDone() {
    return process.isAlive() ? -1 : process.exitValue();
  }

  boolean stoppedBecauseLost() {
    return lost;
  }
}
