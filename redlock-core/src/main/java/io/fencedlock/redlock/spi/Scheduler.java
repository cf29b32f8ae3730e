package io.fencedlock.redlock.spi;

import java.util.concurrent.Executor;
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

  /**
   * Where the work of {@link io.fencedlock.redlock.Redlock#withLockAsync} is called: user code that
   * may block, so not a thread whose other tasks (timers, replies) it would hold up. A simulation,
   * whose work runs in simulated time, may answer its own event loop.
   */
  Executor work();

  /** Whether the calling thread is one that runs this scheduler's tasks. */
  boolean isSchedulerThread();

  /** Drops every pending task and stops. Idempotent. */
  void shutdown();
}
