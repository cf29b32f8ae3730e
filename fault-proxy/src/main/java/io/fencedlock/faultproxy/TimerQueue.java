package io.fencedlock.faultproxy;

import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deadline-ordered timers run by the I/O loop between selects; the loop sleeps in {@code select}
 * until the earliest deadline, so nothing busy-waits.
 *
 * <p>Not thread-safe: confined to the I/O loop thread.
 */
final class TimerQueue {

  private static final Logger log = LoggerFactory.getLogger(TimerQueue.class);

  private final PriorityQueue<Timer> queue = new PriorityQueue<>();
  private long sequence;

  /** Schedules {@code task} to run at {@code dueNanos} on the {@link System#nanoTime()} scale. */
  Cancellable schedule(long dueNanos, Runnable task) {
    Timer timer = new Timer(dueNanos, sequence++, task);
    queue.add(timer);
    return timer;
  }

  /** Nanoseconds until the earliest timer is due, 0 if one is overdue, -1 if there are none. */
  long nanosUntilNext(long nowNanos) {
    Timer first = queue.peek();
    return first == null ? -1 : Math.max(0, first.dueNanos - nowNanos);
  }

  /** Runs every timer due by {@code nowNanos}; timers they schedule run on a later pass. */
  void runDue(long nowNanos) {
    List<Timer> due = new ArrayList<>();
    while (!queue.isEmpty() && queue.peek().dueNanos <= nowNanos) {
      due.add(queue.poll());
    }
    for (Timer timer : due) {
      timer.run();
    }
  }

  private final class Timer implements Cancellable, Comparable<Timer> {
    private final long dueNanos;
    private final long order;
    private final Runnable task;
    private boolean done;

    Timer(long dueNanos, long order, Runnable task) {
      this.dueNanos = dueNanos;
      this.order = order;
      this.task = task;
    }

    @Override
    public void cancel() {
      if (!done) {
        done = true;
        queue.remove(this);
      }
    }

    void run() {
      if (done) {
        return;
      }
      done = true;
      try {
        task.run();
      } catch (RuntimeException e) {
        // One faulty timer must not stop the loop that every proxy depends on.
        log.warn("timer task failed", e);
      }
    }

    @Override
    public int compareTo(Timer other) {
      int byDue = Long.compare(dueNanos - other.dueNanos, 0);
      return byDue != 0 ? byDue : Long.compare(order, other.order);
    }
  }
}
