package io.fencedlock.redlock;

import java.time.Duration;

/**
 * Every test timeout in one place, scaled by the environment variable
 * {@code FENCEDLOCK_TIMING_SCALE} (default 1) for slow machines.
 */
final class Timing {
  private static final double SCALE =
      Double.parseDouble(System.getenv().getOrDefault("FENCEDLOCK_TIMING_SCALE", "1"));

  /** Per-node timeout in integration tests: far above loopback latency on a busy 2-core box. */
  static final Duration NODE_TIMEOUT = scaled(Duration.ofMillis(250));
  /**
   * The maxWait of acquires a test expects to succeed: one attempt can time out on a loaded
   * machine, and the test is not about that.
   */
  static final Duration RETRY_WAIT = scaled(Duration.ofSeconds(5));
  /** Bound for conditions that should become true promptly. */
  static final Duration AWAIT = scaled(Duration.ofSeconds(10));

  private Timing() {}

  static Duration scaled(Duration d) {
    return Duration.ofNanos((long) (d.toNanos() * SCALE));
  }
}
