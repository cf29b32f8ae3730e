package io.fencedlock.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntConsumer;

/**
 * N client threads that each run one step in a loop until stopped. A step that throws ends its
 * thread, and {@link #stopAndJoin()} rethrows the first such failure. Not reusable.
 */
final class Workers {
  private static final long JOIN_TIMEOUT_SECONDS = 60;

  private final AtomicBoolean stop = new AtomicBoolean();
  private final List<Thread> threads = new ArrayList<>();
  private final List<Throwable> failures = new ArrayList<>();

  /** Starts {@code count} threads calling {@code step.accept(clientIndex)} repeatedly. */
  static Workers start(String name, int count, IntConsumer step) {
    Workers workers = new Workers();
    for (int i = 0; i < count; i++) {
      int client = i;
      Thread thread = new Thread(() -> workers.loop(client, step), name + "-" + i);
      thread.setDaemon(true);
      workers.threads.add(thread);
    }
    workers.threads.forEach(Thread::start);
    return workers;
  }

  private void loop(int client, IntConsumer step) {
    try {
      while (!stop.get()) {
        step.accept(client);
      }
    } catch (RuntimeException | Error e) {
      synchronized (failures) {
        failures.add(e);
      }
    }
  }

  boolean stopping() {
    return stop.get();
  }

  /**
   * Blocks the caller for a measurement window or simulated work; never used to wait for an event.
   */
  static void pause(java.time.Duration length) {
    try {
      TimeUnit.NANOSECONDS.sleep(length.toNanos()); // a length of time, not synchronization
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted during a measurement", e);
    }
  }

  /** Stops every thread after its current step and waits for them. */
  void stopAndJoin() {
    stop.set(true);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(JOIN_TIMEOUT_SECONDS);
    for (Thread thread : threads) {
      try {
        thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while stopping workers", e);
      }
      if (thread.isAlive()) {
        throw new IllegalStateException(
            thread.getName() + " did not stop within " + JOIN_TIMEOUT_SECONDS + " s");
      }
    }
    synchronized (failures) {
      if (!failures.isEmpty()) {
        IllegalStateException e =
            new IllegalStateException("a client thread failed", failures.get(0));
        failures.stream().skip(1).forEach(e::addSuppressed);
        throw e;
      }
    }
  }
}
