package io.fencedlock.testkit.support;

import java.time.Duration;

/**
 * The one place test time bounds come from, and the one knob that scales them on slow or busy
 * machines: the system property {@value #SCALE_PROPERTY}, else the environment variable {@value
 * #SCALE_ENV}, else 1. {@code FENCEDLOCK_TIMING_SCALE=3 ./fencedlock test} or {@code mvn verify
 * -Dfencedlock.timing.scale=3} triples every bound below (Maven hands both to the test JVMs).
 *
 * <p>What is scaled: upper bounds on waiting for something that should happen (a process to start,
 * a condition to become true, a reply to arrive). What is not: poll intervals, and lower bounds
 * that are the behaviour under test (a 300 ms latency toxic delays a round trip by at least 300 ms
 * on any machine). A test that needs a bound of its own derives it with {@link #scaled(Duration)};
 * it never compares elapsed time with a literal.
 *
 * <p>Stateless and thread-safe; the scale is read once, when the class is initialized.
 */
public final class Timing {

  /** The system property that scales every bound; wins over {@link #SCALE_ENV}. */
  public static final String SCALE_PROPERTY = "fencedlock.timing.scale";

  /** The environment variable that scales every bound when the property is not set. */
  public static final String SCALE_ENV = "FENCEDLOCK_TIMING_SCALE";

  private static final double SCALE =
      parseScale(System.getProperty(SCALE_PROPERTY), System.getenv(SCALE_ENV));

  /** Bound for something that should happen promptly: a condition, a reply, a process exiting. */
  public static final Duration AWAIT = scaled(Duration.ofSeconds(10));

  /** Bound for a process starting or stopping: a child JVM, a database server, Redis nodes. */
  public static final Duration PROCESS = scaled(Duration.ofSeconds(90));

  /** Bound for a whole concurrent workload of a test. */
  public static final Duration WORKLOAD = scaled(Duration.ofSeconds(90));

  /** How often a bounded wait re-checks its condition. Not scaled: it is not a bound. */
  public static final Duration POLL = Duration.ofMillis(20);

  private Timing() {}

  /** The factor every bound is multiplied by; 1 unless the knob is set. */
  public static double scale() {
    return SCALE;
  }

  /** {@code duration} times the scale. */
  public static Duration scaled(Duration duration) {
    return Duration.ofNanos((long) (duration.toNanos() * SCALE));
  }

  /**
   * An upper bound for an operation expected to take {@code expected}: that plus a scaled 3 s,
   * generous because the machine is shared. The expectation itself is not scaled: it is the
   * behaviour under test.
   */
  public static Duration generousUpperBound(Duration expected) {
    return expected.plus(scaled(Duration.ofSeconds(3)));
  }

  /**
   * The scale given by the property's value, else the environment's, else 1.
   *
   * @throws IllegalArgumentException if the value that applies is not a positive number
   */
  static double parseScale(String property, String env) {
    String name = property != null ? SCALE_PROPERTY : SCALE_ENV;
    String value = property != null ? property : env;
    if (value == null || value.isBlank()) {
      return 1.0;
    }
    double scale;
    try {
      scale = Double.parseDouble(value.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          name + " must be a positive number but was '" + value + "'", e);
    }
    if (!(scale > 0) || Double.isInfinite(scale)) {
      throw new IllegalArgumentException(
          name + " must be a positive number but was '" + value + "'");
    }
    return scale;
  }
}
