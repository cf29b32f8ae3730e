package io.fencedlock.storage.service;

import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The service's admission point: a fixed set of threads that run store calls, behind a bounded
 * queue. A call that finds every thread busy and the queue full is refused at once ({@link
 * Overloaded}) instead of waiting, so overload costs the client one round trip and never a hung
 * request, and a refused write never reaches the store.
 *
 * <p>An admitted call may still be skipped when a store thread takes it off the queue ({@link
 * Expired}): if it waited longer than the queue timeout, or its client's connection has closed
 * meanwhile. Jetty's idle timeout does not fire while a request waits here, and a stop closes the
 * connections of queued requests before their calls run; without this check those calls would still
 * change the store for clients that got no answer, or had long given up.
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

  /** The call was admitted but skipped before it started: nothing was changed. */
  static final class Expired extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** Why the call was skipped. */
    enum Reason {
      /** It waited longer than the queue timeout for a store thread. */
      QUEUE_TIMEOUT,
      /** Its client's connection closed while it waited. */
      CONNECTION_CLOSED
    }

    private final Reason reason;

    private Expired(Reason reason, String message) {
      super(message + "; nothing was changed", null, false, false);
      this.reason = reason;
    }

    Reason reason() {
      return reason;
    }
  }

  private final ThreadPoolExecutor executor;
  private final int threads;
  private final int queue;
  private final Duration queueTimeout;

  /**
   * @param threads store threads
   * @param queue calls that may wait for a thread
   * @param queueTimeout how long a call may wait for a thread before it is skipped
   */
  StoreWorkers(int threads, int queue, Duration queueTimeout) {
    this.threads = threads;
    this.queue = queue;
    this.queueTimeout = queueTimeout;
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
   * Runs {@code call} on a store thread, unless by the time a thread takes it up it has waited
   * longer than the queue timeout or {@code connectionOpen} says its client's connection closed.
   *
   * @param connectionOpen whether the client that waits for the call's outcome is still connected
   * @return the call's outcome, completed on the store thread; {@link Expired} if it was skipped
   * @throws Overloaded if every thread is busy and the queue is full, or the workers are closed
   */
  <T> CompletableFuture<T> submit(BooleanSupplier connectionOpen, Supplier<T> call) {
    CompletableFuture<T> outcome = new CompletableFuture<>();
    long queuedAt = System.nanoTime();
    try {
      executor.execute(
          () -> {
            try {
              Expired expired = expired(System.nanoTime() - queuedAt, connectionOpen);
              if (expired != null) {
                outcome.completeExceptionally(expired);
                return;
              }
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

  /** Why a call that waited {@code waitedNanos} must be skipped, or null if it may run. */
  private Expired expired(long waitedNanos, BooleanSupplier connectionOpen) {
    if (waitedNanos > queueTimeout.toNanos()) {
      return new Expired(
          Expired.Reason.QUEUE_TIMEOUT,
          "expired: waited "
              + waitedNanos / 1_000_000
              + " ms for a store thread, longer than the queue timeout of "
              + queueTimeout.toMillis()
              + " ms");
    }
    if (!connectionOpen.getAsBoolean()) {
      return new Expired(
          Expired.Reason.CONNECTION_CLOSED,
          "expired: the connection closed while the request waited for a store thread");
    }
    return null;
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
   * what is left. Queued calls whose connections the server closed meanwhile are skipped, not run.
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
