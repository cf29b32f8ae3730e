package io.fencedlock.redlock.spi;

import java.util.concurrent.RejectedExecutionException;

/**
 * Runs the algorithm's timers (retry delays, bounded waits, lease renewals and their loss
 * deadlines). Thread-safe.
 */
public interface Scheduler {

  /** A scheduled task that can still be cancelled. */
  interface Task {
    /** Cancels the task if it has not started; a no-op otherwise. */
    void cancel();
  }

  /**
   * Runs {@code task} once, after {@code delayNanos}, on a thread of this scheduler. The task must
   * not block.
   *
   * @throws RejectedExecutionException once {@link #shutdown()} was called
   */
  Task schedule(Runnable task, long delayNanos);

  /** Whether the calling thread is one that runs this scheduler's tasks. */
  boolean isSchedulerThread();

  /** Drops every pending task and stops. Idempotent. */
  void shutdown();
}
