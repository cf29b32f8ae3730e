package io.fencedlock.redlock;

import io.fencedlock.testkit.support.Timing;
import java.time.Duration;

/**
 * The lock-specific time bounds of core's integration tests, scaled by the one knob of the test
 * kit's {@link Timing} ({@code -Dfencedlock.timing.scale} or {@code FENCEDLOCK_TIMING_SCALE}).
 */
final class LockTiming {

  /** Per-node timeout in integration tests: far above loopback latency on a busy 2-core box. */
  static final Duration NODE_TIMEOUT = Timing.scaled(Duration.ofMillis(250));

  /**
   * The maxWait of acquires a test expects to succeed: one attempt can time out on a loaded
   * machine, and the test is not about that.
   */
  static final Duration RETRY_WAIT = Timing.scaled(Duration.ofSeconds(5));

  private LockTiming() {}
}
