package io.fencedlock.redlock.spi;

import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** A {@link Scheduler} on one daemon thread. Thread-safe. */
final class ThreadScheduler implements Scheduler {
  private final ScheduledThreadPoolExecutor executor;
  private final ExecutorService work;
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
    AtomicInteger workers = new AtomicInteger();
    this.work =
        Executors.newCachedThreadPool(
            task -> {
              Thread created = new Thread(task, "redlock-work-" + workers.incrementAndGet());
              created.setDaemon(true);
              return created;
            });
  }

  /** A thread per work running (idle ones kept a minute): blocking work holds up only itself. */
  @Override
  public Executor work() {
    return work;
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
    work.shutdown(); // work that runs may finish; its lease was lost to the closing (see Redlock)
  }
}
