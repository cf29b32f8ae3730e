package io.fencedlock.storage.demo;

import java.time.Duration;

/**
 * Every test timeout of the demo tests, from one place, scaled by the system property {@code
 * fencedlock.timing.scale} (default 1) for slow machines.
 */
final class Timing {
  private static final double SCALE =
      Double.parseDouble(System.getProperty("fencedlock.timing.scale", "1"));

  /** A JVM with its Redis nodes starting, running the demo, or stopping. */
  static final Duration PROCESS = scaled(Duration.ofSeconds(90));

  /** {@code ./fencedlock}: possibly a Maven build first, then the demo. */
  static final Duration LAUNCHER = scaled(Duration.ofMinutes(8));

  /** A short wait for something that should already be happening. */
  static final Duration SHORT = scaled(Duration.ofSeconds(15));

  private Timing() {}

  static Duration scaled(Duration duration) {
    return Duration.ofMillis(Math.round(duration.toMillis() * SCALE));
  }
}
