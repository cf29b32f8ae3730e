package io.fencedlock.redlock;

import java.time.Duration;

/**
 * Lease arithmetic on a monotonic clock. Pure functions; thread-safe.
 *
 * <p>A lease asked for at {@code start} with {@code ttl} is valid until {@code start + ttl -
 * drift}, where {@code drift = ttl * driftFactor + 2 ms} covers clock-rate differences between this
 * process and the nodes. Measuring from the moment before the first request was sent is what makes
 * the bound safe: every node's key was set after {@code start}, so it expires after {@code start +
 * ttl} by that node's clock.
 */
final class Validity {

  /** The constant part of the drift allowance, as in the reference Redlock client. */
  static final Duration DRIFT_FLOOR = Duration.ofMillis(2);

  private Validity() {}

  /** The drift allowance for a TTL, in nanoseconds. */
  static long driftNanos(Duration ttl, double driftFactor) {
    return (long) (ttl.toNanos() * driftFactor) + DRIFT_FLOOR.toNanos();
  }

  /** The monotonic reading at which a lease started at {@code startNanos} stops being valid. */
  static long deadline(long startNanos, Duration ttl, double driftFactor) {
    return startNanos + ttl.toNanos() - driftNanos(ttl, driftFactor);
  }

  /** Time left before {@code deadlineNanos}, never negative. */
  static Duration remaining(long deadlineNanos, long nowNanos) {
    return Duration.ofNanos(Math.max(0, deadlineNanos - nowNanos));
  }

  /**
   * Checks a requested TTL: positive, whole milliseconds (Redis's PX unit), larger than its drift
   * allowance, and at most {@code max}.
   *
   * @throws IllegalArgumentException naming {@code parameter} otherwise; over {@code max}, also the
   *     setting to raise and what raising it costs
   */
  static void checkTtl(String parameter, Duration ttl, double driftFactor, Duration max) {
    if (ttl == null) {
      throw new IllegalArgumentException(parameter + " must not be null");
    }
    if (ttl.isNegative() || ttl.isZero()) {
      throw new IllegalArgumentException(parameter + " must be positive: " + ttl);
    }
    if (ttl.toNanos() % 1_000_000 != 0) {
      throw new IllegalArgumentException(parameter + " must be whole milliseconds: " + ttl);
    }
    if (ttl.toNanos() <= driftNanos(ttl, driftFactor)) {
      throw new IllegalArgumentException(
          parameter
              + " must be larger than its drift allowance (ttl * driftFactor + 2 ms): "
              + ttl);
    }
    if (ttl.compareTo(max) > 0) {
      throw new IllegalArgumentException(
          parameter
              + " "
              + ttl
              + " is over maxLeaseTtl "
              + max
              + ": raise RedlockConfig.Builder.maxLeaseTtl (a node that loses its memory is then"
              + " kept out of quorums that long, and every client of the deployment needs the"
              + " same value), or keep a shorter lease alive (Lease.keepAlive, withLock)");
    }
  }
}
