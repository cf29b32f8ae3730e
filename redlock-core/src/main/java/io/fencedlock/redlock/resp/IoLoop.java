package io.fencedlock.redlock.resp;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one I/O thread of a driver: a {@link Selector} that waits for connects, replies and room to
 * write on every node's sockets, plus tasks and timers (connect timeouts, reconnect backoff) run on
 * the same thread. Callers never wait for it: they write their commands themselves (see {@link
 * RespConnection}), and this thread only reads, so an uncontended call costs one wake-up of this
 * thread per reply batch and one of the caller. Before a timer or deadline is acted on, the sockets
 * are read: a reply that arrived while this thread was held up (by a caller's dependent that
 * blocked in it) is delivered, not timed out. Thread-safe.
 */
final class IoLoop implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(IoLoop.class);

  /** What a registered channel does when the selector reports it ready. */
  interface Handler {
    /** Called on the loop thread with the key's ready operations. */
    void ready(SelectionKey key);
  }

  /** Something with deadlines of its own, checked on every turn of the loop. */
  interface Expiring {
    /**
     * Acts on what is due at {@code now} (a {@link System#nanoTime()} reading); returns the
     * nanoseconds to its next deadline, or {@link Long#MAX_VALUE} if it has none.
     */
    long expireDue(long now);
  }

  private record Timed(long deadline, Runnable task) {}

  private final Selector selector;
  private final Thread thread;
  private final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();

  /** Loop thread only. */
  private final PriorityQueue<Timed> timers =
      new PriorityQueue<>((a, b) -> Long.compare(a.deadline - b.deadline, 0));

  private final List<Expiring> expiring = new CopyOnWriteArrayList<>();

  /**
   * The longest the loop sleeps: a deadline added while it sleeps (a request's, at most this far
   * ahead) is then never missed, without a wake-up per request.
   */
  private final long maxSleepNanos;

  /** When {@link #expireDue} looks next ({@link System#nanoTime()}). Loop thread only. */
  private long nextExpiryCheck = System.nanoTime();

  private volatile boolean closed;

  /**
   * @param maxSleepNanos the longest the loop sleeps; no {@link Expiring} may add a deadline closer
   *     than this without waking the loop
   */
  IoLoop(ThreadFactory threads, long maxSleepNanos) {
    this.maxSleepNanos = maxSleepNanos;
    try {
      this.selector = Selector.open();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open a selector", e);
    }
    this.thread = threads.newThread(this::run);
    this.thread.start();
  }

  Selector selector() {
    return selector;
  }

  boolean inLoop() {
    return Thread.currentThread() == thread;
  }

  /** Checks {@code deadlines} on every turn of the loop, until {@link #untrack}. */
  void track(Expiring deadlines) {
    expiring.add(deadlines);
  }

  void untrack(Expiring deadlines) {
    expiring.remove(deadlines);
  }

  /** Runs {@code task} on the loop thread, soon; dropped once the loop is closed. */
  void execute(Runnable task) {
    tasks.add(task);
    if (!inLoop()) {
      selector.wakeup();
    }
  }

  /**
   * Runs {@code task} on the loop thread after {@code delayNanos}; dropped once closed.
   *
   * @return what cancels it: drops the task from the timers (soon, on the loop thread), so that
   *     nothing it refers to is kept until its time
   */
  Runnable schedule(Runnable task, long delayNanos) {
    Timed timed = new Timed(System.nanoTime() + delayNanos, task);
    execute(() -> timers.add(timed));
    return () -> execute(() -> timers.remove(timed));
  }

  private void run() {
    while (!closed) {
      try {
        runTasks();
        long now = System.nanoTime();
        if (isAnythingDue(now)) {
          // Replies that arrived while this thread was held up (by a caller's dependent that
          // blocked, say) are read first, so they win over deadlines that passed meanwhile.
          selector.selectNow(this::dispatch);
        }
        long wait = Math.min(runDueTimers(now), expireDue(now));
        if (closed) {
          break;
        }
        if (!tasks.isEmpty()) {
          // Queued by what just ran here (a timed-out call's dependents sending, say), which did
          // not wake the selector: run them without sleeping.
          selector.selectNow(this::dispatch);
          continue;
        }
        long left = now + wait - System.nanoTime();
        // The consumer form: no selected-key set to fill, iterate and clear on every turn.
        selector.select(this::dispatch, Math.max(1, TimeUnit.NANOSECONDS.toMillis(left + 999_999)));
      } catch (ClosedSelectorException e) {
        break;
      } catch (Throwable unexpected) {
        // Handlers keep their own failures in their calls; this is a bug or an Error. Keep going:
        // a dead loop would leave every node's requests unanswered until their timeouts.
        log.warn("redlock I/O loop: unexpected failure, continuing", unexpected);
      }
    }
  }

  private void dispatch(SelectionKey key) {
    try {
      if (key.isValid()) {
        ((Handler) key.attachment()).ready(key);
      }
    } catch (RuntimeException e) {
      log.warn("redlock I/O loop: a connection's handler failed", e);
    }
  }

  private void runTasks() {
    Runnable task;
    while ((task = tasks.poll()) != null) {
      try {
        task.run();
      } catch (RuntimeException e) {
        log.warn("redlock I/O loop: a task failed", e);
      }
    }
  }

  /** Whether a timer or a deadline is due at {@code now}. */
  private boolean isAnythingDue(long now) {
    Timed next = timers.peek();
    return now - nextExpiryCheck >= 0 || (next != null && next.deadline - now <= 0);
  }

  /**
   * Expires what is due at {@code now}; returns the nanoseconds from {@code now} to sleep at most.
   * Skipped until the earliest deadline the last check found: a deadline added since is at least
   * {@link #maxSleepNanos} after that check (the contract of {@link #IoLoop}), so not earlier than
   * the next check.
   */
  private long expireDue(long now) {
    if (now - nextExpiryCheck < 0) {
      return nextExpiryCheck - now;
    }
    long wait = maxSleepNanos;
    for (Expiring deadlines : expiring) {
      try {
        wait = Math.min(wait, deadlines.expireDue(now));
      } catch (RuntimeException e) {
        log.warn("redlock I/O loop: expiring requests failed", e);
      }
    }
    nextExpiryCheck = now + wait;
    return wait;
  }

  /**
   * Runs the timers due at {@code now}; returns the nanoseconds from {@code now} to the next one,
   * or the longest sleep.
   */
  private long runDueTimers(long now) {
    Timed next;
    while ((next = timers.peek()) != null) {
      long left = next.deadline - now;
      if (left > 0) {
        return left;
      }
      timers.poll();
      try {
        next.task.run();
      } catch (RuntimeException e) {
        log.warn("redlock I/O loop: a timer failed", e);
      }
      runTasks(); // a timer's connect attempt registers its channel before the next select
    }
    return maxSleepNanos;
  }

  /** Stops the thread and closes the selector (channels are closed by their connections). */
  @Override
  public void close() {
    closed = true;
    selector.wakeup();
    if (!inLoop()) {
      try {
        thread.join(TimeUnit.SECONDS.toMillis(2));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    try {
      selector.close();
    } catch (IOException e) {
      log.debug("closing the selector failed", e);
    }
  }
}
