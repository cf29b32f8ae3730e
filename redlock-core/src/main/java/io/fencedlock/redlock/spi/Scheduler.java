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
   * may block, so never this scheduler's timer thread or a driver's I/O thread, or it would hold up
   * their other tasks. By default the scheduler's own thread, for schedulers (a simulation's) whose
   * tasks may run as long as they like.
   */
  default Executor work() {
    return task -> schedule(task, 0);
  }

  /** Whether the calling thread is one that runs this scheduler's tasks. */
  boolean isSchedulerThread();

  /** Drops every pending task and stops. Idempotent. */
  void shutdown();
}
