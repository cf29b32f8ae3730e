package io.fencedlock.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencedlock.testkit.support.Timing;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Waits for a condition in the benchmark's tests, polling, and fails after {@link Timing#AWAIT}.
 */
final class Conditions {
  private Conditions() {}

  static void await(BooleanSupplier condition) {
    await(Timing.AWAIT, condition);
  }

  /**
   * The same, failing after {@code bound}: for a condition that must hold before something else.
   */
  static void await(Duration bound, BooleanSupplier condition) {
    long deadline = System.nanoTime() + bound.toNanos();
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("condition within " + bound).isLessThan(deadline);
      Workers.pause(Timing.POLL);
    }
  }
}
