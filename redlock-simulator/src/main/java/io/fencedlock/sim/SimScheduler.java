package io.fencedlock.sim;

import io.fencedlock.redlock.spi.Scheduler;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * A client's timers, on the event loop: a task is an event of that client, so it waits while the
 * client is paused, like a timer thread of a stopped process.
 */
final class SimScheduler implements Scheduler {
  private final EventLoop loop;
  private final int client;
  private boolean shutdown;

  SimScheduler(EventLoop loop, int client) {
    this.loop = loop;
    this.client = client;
  }

  @Override
  public Task schedule(Runnable task, long delayNanos) {
    if (shutdown) {
      throw new RejectedExecutionException(
          "the simulated scheduler of client " + client + " is shut down");
    }
    Event e =
        loop.after(
            Math.max(0, delayNanos),
            client,
            () -> {
              if (!shutdown) {
                task.run();
              }
            });
    return () -> e.cancelled = true;
  }

  /**
   * The work of {@code withLockAsync}, as an event of this client: run in simulated time, and, as
   * on a real client's work threads, still run once queued when the scheduler shuts down.
   */
  @Override
  public Executor work() {
    return task -> {
      if (shutdown) {
        throw new RejectedExecutionException(
            "the simulated scheduler of client " + client + " is shut down");
      }
      loop.after(0, client, task);
    };
  }

  /** False: the simulator calls only the asynchronous API, which never waits for itself. */
  @Override
  public boolean isSchedulerThread() {
    return false;
  }

  @Override
  public void shutdown() {
    shutdown = true;
  }

  boolean isShutdown() {
    return shutdown;
  }
}
