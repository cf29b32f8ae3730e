package io.fencedlock.faultproxy;

import java.time.Duration;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.random.RandomGenerator;

/**
 * A {@link StageContext} with a manual clock: timers run only when the test advances time, so stage
 * timing is checked exactly and without sleeping. Not thread-safe.
 */
final class ManualContext implements StageContext {

  private final PriorityQueue<Task> tasks = new PriorityQueue<>();
  private final Random random = new Random(1);
  private long now = 1_000_000_000L;
  private long order;

  @Override
  public long nanoTime() {
    return now;
  }

  @Override
  public Cancellable schedule(long delayNanos, Runnable action) {
    Task task = new Task(now + Math.max(0, delayNanos), order++, action);
    tasks.add(task);
    return () -> tasks.remove(task);
  }

  @Override
  public RandomGenerator random() {
    return random;
  }

  /** Moves time forward, running every timer that falls due on the way, in order. */
  void advance(Duration duration) {
    long target = now + duration.toNanos();
    while (!tasks.isEmpty() && tasks.peek().due <= target) {
      Task task = tasks.poll();
      now = task.due;
      task.action.run();
    }
    now = target;
  }

  int pendingTimers() {
    return tasks.size();
  }

  private record Task(long due, long order, Runnable action) implements Comparable<Task> {
    @Override
    public int compareTo(Task other) {
      int byDue = Long.compare(due, other.due);
      return byDue != 0 ? byDue : Long.compare(order, other.order);
    }
  }
}
