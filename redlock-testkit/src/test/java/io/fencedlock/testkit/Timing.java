package io.fencedlock.testkit;

import java.time.Duration;

/**
 * The one place test time bounds come from. Scale them on slow or busy machines with
 * {@code -Dfencedlock.timing.scale=3}; nothing in a test waits for a fixed time.
 */
final class Timing {
  private static final double SCALE =
      Double.parseDouble(System.getProperty("fencedlock.timing.scale", "1"));

  /** Upper bound for something that should happen promptly: a process exiting, a dir deleted. */
  static final Duration EVENTUALLY = scaled(Duration.ofSeconds(10));

  /** Upper bound for starting a child JVM that starts redis. */
  static final Duration CHILD_JVM = scaled(Duration.ofSeconds(60));

  /** A command timeout short enough to make a test about a paused node quick. */
  static final Duration SHORT_COMMAND_TIMEOUT = Duration.ofMillis(300);

  /** How often awaited conditions are re-checked. */
  static final Duration POLL = Duration.ofMillis(20);

  private Timing() {}

  static Duration scaled(Duration duration) {
    return Duration.ofNanos((long) (duration.toNanos() * SCALE));
  }
}
