package io.fencedlock.faultproxy;

import java.nio.channels.Selector;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.jspecify.annotations.Nullable;

/**
 * Wakes the I/O loop's selector at a deadline finer than a millisecond.
 *
 * <p>{@link Selector#select(long)} takes whole milliseconds, so a loop that waits in it for its
 * next timer oversleeps: a timer due in 0.3 ms fires after 1 ms, one due in 1.2 ms after 2 ms. For
 * a latency toxic of 1 ms that meant delays anywhere from 1 to 2 ms, depending on what else woke
 * the loop. This thread sleeps until the deadline with {@link LockSupport#parkNanos}, which the
 * kernel times in microseconds, then wakes the selector; the loop's own millisecond timeout stays
 * as a backstop. The loop asks for it only where the select would oversleep by more than a thread's
 * wake-up costs (see {@code IoLoop}).
 *
 * <p>Thread-safe. One request is pending at a time: a new one replaces it.
 */
final class SelectorAlarm implements AutoCloseable {

  private final Selector selector;
  private final Thread thread;

  /** When to wake the selector, on the {@link System#nanoTime()} scale; null for never. */
  private final AtomicReference<@Nullable Long> deadline = new AtomicReference<>();

  private volatile boolean closed;

  private SelectorAlarm(Selector selector, String threadName) {
    this.selector = selector;
    this.thread = new Thread(this::run, threadName);
    this.thread.setDaemon(true);
  }

  /** Starts the alarm's thread. */
  static SelectorAlarm start(Selector selector, String threadName) {
    SelectorAlarm alarm = new SelectorAlarm(selector, threadName);
    alarm.thread.start();
    return alarm;
  }

  /** Wakes the selector at {@code dueNanos}, instead of at any time asked for before. */
  void wakeAt(long dueNanos) {
    Long previous = deadline.getAndSet(dueNanos);
    // A thread sleeping towards an earlier deadline wakes on its own and sleeps on.
    if (previous == null || dueNanos - previous < 0) {
      LockSupport.unpark(thread);
    }
  }

  /** Forgets the pending request, if any. */
  void cancel() {
    deadline.set(null);
  }

  private void run() {
    while (!closed) {
      Thread.interrupted(); // nobody should interrupt it, but a set flag would turn parking into
      // spinning
      Long due = deadline.get();
      if (due == null) {
        LockSupport.park(this);
        continue;
      }
      long wait = due - System.nanoTime();
      if (wait > 0) {
        LockSupport.parkNanos(this, wait);
      } else if (deadline.compareAndSet(due, null)) { // identity: the very request read above
        selector.wakeup();
      }
    }
  }

  /** Stops the thread. Idempotent. */
  @Override
  public void close() {
    closed = true;
    LockSupport.unpark(thread);
    if (Thread.currentThread() != thread) {
      try {
        thread.join(TimeUnit.SECONDS.toMillis(1));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
