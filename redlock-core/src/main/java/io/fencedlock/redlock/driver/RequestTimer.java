package io.fencedlock.redlock.driver;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fails node requests that are not answered within the node timeout, on one daemon thread.
 *
 * <p>Every request gets the same timeout, so deadlines arrive in about the order requests are sent:
 * a FIFO queue, where sending costs one append and an answered request costs nothing (its entry is
 * dropped when it reaches the head). A sender descheduled between reading the clock and appending
 * can land behind a later deadline; its request then times out late by that gap, never early. The
 * thread sleeps until the deadline of the oldest request still unanswered, so in steady traffic it
 * wakes about once per timeout period, however many requests go out, and a request wakes it only if
 * it was idle.
 *
 * <p>Why not {@link CompletableFuture#orTimeout}: the JDK's shared scheduler is signalled whenever
 * a new task heads its queue, which in steady traffic is about once per fan-out (the previous
 * fan-out's timers are gone by then), and each timer is also removed from a heap when its request
 * completes. On the 2-core benchmark machine that cost about 4 % of an uncontended acquire +
 * release, three more {@code futex} calls per operation than the floor's (docs/analysis.md, section
 * 10).
 *
 * <p>Deadlines are read from {@link System#nanoTime}, which is what the thread sleeps on; they
 * bound waiting for replies, never a lease. Thread-safe.
 */
public final class RequestTimer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(RequestTimer.class);

  /** A queued request; compared by identity (a record would use the future's own equals). */
  private static final class Pending {
    final long deadline;
    final CompletableFuture<?> request;

    Pending(long deadline, CompletableFuture<?> request) {
      this.deadline = deadline;
      this.request = request;
    }
  }

  private final ConcurrentLinkedQueue<Pending> queue = new ConcurrentLinkedQueue<>();
  private final long timeoutNanos;
  private final Thread thread;

  /** Set while the thread sleeps without a deadline, waiting for the next request. */
  private volatile boolean idle;

  private volatile boolean closed;

  public RequestTimer(Duration timeout, ThreadFactory threads) {
    this.timeoutNanos = timeout.toNanos();
    this.thread = threads.newThread(this::run);
    this.thread.start();
  }

  /** The timeout every request gets. */
  public long timeoutNanos() {
    return timeoutNanos;
  }

  /**
   * Fails {@code request} with a {@link TimeoutException} unless it completes within the timeout,
   * and returns it. The failure runs the request's dependents on this timer's thread, so they must
   * not block. After {@link #close()} the request fails at once.
   */
  public <T> CompletableFuture<T> bound(CompletableFuture<T> request) {
    if (closed) {
      request.completeExceptionally(closedFailure());
      return request;
    }
    queue.offer(new Pending(System.nanoTime() + timeoutNanos, request));
    // Read after the append: either the thread's emptiness check after setting idle sees this
    // request, or this read sees idle (volatile accesses are totally ordered).
    if (idle) {
      LockSupport.unpark(thread);
    }
    if (closed) {
      failAll(); // closed meanwhile: the thread may have drained the queue before the append
    }
    return request;
  }

  private void run() {
    while (!closed) {
      Thread.interrupted(); // a dependent that set it must not turn parking into spinning
      try {
        expireDue();
      } catch (Throwable unexpected) {
        // Dependents' own failures stay in their futures; this is an Error or a bug. Keep
        // going: a dead timer would leave requests to unreachable nodes waiting forever.
        log.warn("request timer: unexpected failure, continuing", unexpected);
      }
    }
    failAll();
  }

  /** Fails every request that is due, drops answered ones at the head, then sleeps. */
  private void expireDue() {
    Pending head;
    // The clock is read per entry: failing one runs its dependents, which takes time.
    while ((head = queue.peek()) != null
        && (head.request.isDone() || head.deadline - System.nanoTime() <= 0)) {
      // Only this thread and close() take entries, so the polled one is the head unless close()
      // drained the queue meanwhile; then the polled entry fails as closed, as close() fails
      // every other. Most entries were answered: they cost no exception (whose stack trace
      // would dominate this loop's cost), and one poll (a remove by identity cost a scan).
      Pending taken = queue.poll();
      if (taken != null && !taken.request.isDone()) {
        // Under the request's monitor: a NOSCRIPT fallback decides under it too (NodeClient).
        synchronized (taken.request) {
          taken.request.completeExceptionally(
              taken == head ? new TimeoutException() : closedFailure());
        }
      }
    }
    if (head != null) {
      LockSupport.parkNanos(this, head.deadline - System.nanoTime());
      return;
    }
    idle = true;
    if (queue.isEmpty() && !closed) {
      LockSupport.park(this);
    }
    idle = false;
  }

  /** How many requests are queued, answered or not (for tests). */
  int queued() {
    return queue.size();
  }

  /** Whether the timer's thread is alive (for tests). */
  boolean isRunning() {
    return thread.isAlive();
  }

  private void failAll() {
    Pending next;
    while ((next = queue.poll()) != null) {
      next.request.completeExceptionally(closedFailure());
    }
  }

  private static IllegalStateException closedFailure() {
    return new IllegalStateException("the Redlock client was closed before the node answered");
  }

  /**
   * Stops the thread; requests still unanswered fail at once, so nothing waits for a timeout that
   * will never fire.
   */
  @Override
  public void close() {
    closed = true;
    LockSupport.unpark(thread);
    if (Thread.currentThread()
        != thread) { // a dependent closing the client must not wait for itself
      try {
        thread.join(TimeUnit.SECONDS.toMillis(1));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    failAll();
  }
}
