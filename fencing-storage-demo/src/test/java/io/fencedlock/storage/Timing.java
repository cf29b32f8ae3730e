package io.fencedlock.storage;

import java.time.Duration;

/**
 * Every test timeout, from one place, scaled by the system property {@code fencedlock.timing.scale}
 * (default 1) for slow machines.
 */
final class Timing {
  private static final double SCALE =
      Double.parseDouble(System.getProperty("fencedlock.timing.scale", "1"));

  /** A process (JVM, PostgreSQL) starting or stopping. */
  static final Duration PROCESS = scaled(Duration.ofSeconds(60));

  /** A short wait for something that should already be happening. */
  static final Duration SHORT = scaled(Duration.ofSeconds(10));

  /** A whole concurrent workload. */
  static final Duration WORKLOAD = scaled(Duration.ofSeconds(90));

  private Timing() {}

  static Duration scaled(Duration duration) {
    return Duration.ofMillis(Math.round(duration.toMillis() * SCALE));
  }
}
