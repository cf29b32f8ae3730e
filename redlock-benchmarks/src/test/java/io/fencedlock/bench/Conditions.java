package io.fencedlock.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencedlock.testkit.support.Timing;
import java.util.function.BooleanSupplier;

/**
 * Waits for a condition in the benchmark's tests, polling, and fails after {@link Timing#AWAIT}.
 */
final class Conditions {
  private Conditions() {}

  static void await(BooleanSupplier condition) {
    long deadline = System.nanoTime() + Timing.AWAIT.toNanos();
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("condition within " + Timing.AWAIT).isLessThan(deadline);
      Workers.pause(Timing.POLL);
    }
  }
}
