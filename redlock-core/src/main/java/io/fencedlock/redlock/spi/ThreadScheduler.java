package io.fencedlock.redlock.spi;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/** A {@link Scheduler} on one daemon thread. Thread-safe. */
final class ThreadScheduler implements Scheduler {
  private final ScheduledThreadPoolExecutor executor;
  private volatile Thread thread;

  ThreadScheduler(String threadName) {
    this.executor =
        new ScheduledThreadPoolExecutor(
            1,
            task -> {
              Thread created = new Thread(task, threadName);
              created.setDaemon(true);
              thread = created;
              return created;
            });
    executor.setRemoveOnCancelPolicy(true);
  }

  @Override
  public Task schedule(Runnable task, long delayNanos) {
    ScheduledFuture<?> scheduled = executor.schedule(task, delayNanos, TimeUnit.NANOSECONDS);
    return () -> scheduled.cancel(false);
  }

  @Override
  public boolean isSchedulerThread() {
    return Thread.currentThread() == thread;
  }

  @Override
  public void shutdown() {
    executor.shutdownNow();
  }
}
