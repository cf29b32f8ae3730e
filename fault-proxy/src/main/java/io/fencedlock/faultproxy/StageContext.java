package io.fencedlock.faultproxy;

import java.util.random.RandomGenerator;

/**
 * What a toxic stage may use from its link: time, timers and the seeded random source. Confined to
 * the I/O loop thread; tests substitute a manual clock.
 */
interface StageContext {

  /** Monotonic time in nanoseconds. */
  long nanoTime();

  /** Runs {@code task} on the loop thread after {@code delayNanos} (at once if not positive). */
  Cancellable schedule(long delayNanos, Runnable task);

  /** The server's seeded random source, for toxicity draws, jitter and slice sizes. */
  RandomGenerator random();
}
