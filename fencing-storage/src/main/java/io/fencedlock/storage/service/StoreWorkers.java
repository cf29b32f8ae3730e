package io.fencedlock.storage.service;

import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The service's admission point: a fixed set of threads that run store calls, behind a bounded
 * queue. A call that finds every thread busy and the queue full is refused at once ({@link
 * Overloaded}) instead of waiting, so overload costs the client one round trip and never a hung
 * request, and a refused write never reaches the store.
 *
 * <p>HTTP threads never block on the database: they hand the call here and answer when it
 * completes. Thread-safe.
 */
final class StoreWorkers implements AutoCloseable {

  /** The call was refused before it started: nothing was changed. */
  static final class Overloaded extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Overloaded(int threads, int queue) {
      super(
          "overloaded: all "
              + threads
              + " store threads busy and "
              + queue
              + " requests waiting; nothing was changed",
          null,
          false,
          false);
    }
  }

  private final ThreadPoolExecutor executor;
  private final int threads;
  private final int queue;

  StoreWorkers(int threads, int queue) {
    this.threads = threads;
    this.queue = queue;
    this.executor =
        new ThreadPoolExecutor(
            threads,
            threads,
            30,
            TimeUnit.SECONDS,
            new ArrayBlockingQueue<>(queue),
            namedThreads(),
            new ThreadPoolExecutor.AbortPolicy());
    executor.allowCoreThreadTimeOut(true);
  }

  /**
   * Runs {@code call} on a store thread.
   *
   * @return the call's outcome, completed on the store thread
   * @throws Overloaded if every thread is busy and the queue is full, or the workers are closed
   */
  <T> CompletableFuture<T> submit(Supplier<T> call) {
    CompletableFuture<T> outcome = new CompletableFuture<>();
    try {
      executor.execute(
          () -> {
            try {
              outcome.complete(call.get());
            } catch (RuntimeException | Error e) {
              outcome.completeExceptionally(e);
            }
          });
    } catch (RejectedExecutionException e) {
      throw new Overloaded(threads, queue);
    }
    return outcome;
  }

  /** Store calls running now (approximate, as the executor counts); for the metrics gauge. */
  int running() {
    return executor.getActiveCount();
  }

  /** Requests waiting for a thread now; for the metrics gauge. */
  int queued() {
    return executor.getQueue().size();
  }

  /**
   * Refuses new calls, lets queued and running ones finish for up to {@code grace}, then interrupts
   * what is left.
   *
   * @return whether everything finished in time
   */
  boolean shutdown(Duration grace) throws InterruptedException {
    executor.shutdown();
    if (executor.awaitTermination(grace.toNanos(), TimeUnit.NANOSECONDS)) {
      return true;
    }
    executor.shutdownNow();
    return false;
  }

  /** Interrupts everything at once; idempotent. */
  @Override
  public void close() {
    executor.shutdownNow();
  }

  private static ThreadFactory namedThreads() {
    AtomicInteger counter = new AtomicInteger();
    return runnable -> {
      Thread thread = new Thread(runnable, "fenced-storage-store-" + counter.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }
}
