package io.fencedlock.redlock;

import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * How {@link Lease#keepAlive} keeps a lease alive while work runs: it extends the lease every
 * {@link #interval} of its TTL, each extend counting only inside the current validity and never
 * re-creating a key, and stops at the first cap reached. Renewal is always bounded: by a total hold
 * time (default 24 hours) and, if set, a number of renewals. The hold cap is there for a holder
 * that hangs (a deadlocked work thread in a live process would otherwise keep its lock forever); a
 * crashed process takes its renewal with it. It is a day so that long jobs survive the default; a
 * job that may run longer sets {@link #maxHold}. Renewals do not count towards {@link
 * RedlockConfig#maxExtensions()}. Immutable.
 *
 * <p>Renewal narrows the window in which a slow holder outlives its lease; it does not close it: a
 * holder that pauses (GC, SIGSTOP) longer than the remaining validity cannot renew, and only the
 * fencing token keeps its late writes out (docs/analysis.md).
 */
public final class Renewal {
  /** Default total time a lease may be kept alive, in minutes (24 hours). */
  public static final long DEFAULT_MAX_HOLD_MINUTES = 24 * 60;

  /** Default fraction of the TTL after which a renewal is sent. */
  public static final double DEFAULT_FRACTION = 1.0 / 3;

  private final @Nullable Duration ttl;
  private final double fraction;
  private final Duration maxHold;
  private final int maxRenewals;

  private Renewal(@Nullable Duration ttl, double fraction, Duration maxHold, int maxRenewals) {
    this.ttl = ttl;
    this.fraction = fraction;
    this.maxHold = maxHold;
    this.maxRenewals = maxRenewals;
  }

  /** The defaults: renew with the lease's own TTL every third of it, for at most 24 hours. */
  public static Renewal defaults() {
    return new Renewal(
        null, DEFAULT_FRACTION, Duration.ofMinutes(DEFAULT_MAX_HOLD_MINUTES), Integer.MAX_VALUE);
  }

  /**
   * The TTL each renewal asks for; null (the default) for the lease's own TTL.
   *
   * @throws IllegalArgumentException if not positive
   */
  public Renewal ttl(Duration renewTtl) {
    Objects.requireNonNull(renewTtl, "ttl");
    require(!renewTtl.isNegative() && !renewTtl.isZero(), "ttl must be positive: " + renewTtl);
    return new Renewal(renewTtl, fraction, maxHold, maxRenewals);
  }

  /**
   * Renew once this fraction of the TTL has passed since the last confirmed renewal (or the
   * acquire). Smaller is safer against slow nodes and costs more requests. Default 1/3.
   *
   * @throws IllegalArgumentException unless {@code 0 < fraction <= 0.5}
   */
  public Renewal every(double fractionOfTtl) {
    require(
        fractionOfTtl > 0 && fractionOfTtl <= 0.5,
        "fraction must be in (0, 0.5]: " + fractionOfTtl);
    return new Renewal(ttl, fractionOfTtl, maxHold, maxRenewals);
  }

  /**
   * The longest total time the lease is kept alive, counted from the call to {@link
   * Lease#keepAlive}; then renewal stops and the lease is reported lost before its validity runs
   * out ({@link LeaseLoss.Reason#RENEWAL_LIMIT}, its detail naming this setting). Default 24 hours.
   *
   * @throws IllegalArgumentException if not positive or above 7 days
   */
  public Renewal maxHold(Duration hold) {
    Objects.requireNonNull(hold, "maxHold");
    require(
        !hold.isNegative() && !hold.isZero() && hold.compareTo(Duration.ofDays(7)) <= 0,
        "maxHold must be positive and at most 7 days: " + hold);
    return new Renewal(ttl, fraction, hold, maxRenewals);
  }

  /**
   * The most renewals sent; then the lease is reported lost as with {@link #maxHold}.
   *
   * @throws IllegalArgumentException if negative
   */
  public Renewal maxRenewals(int renewals) {
    require(renewals >= 0, "maxRenewals must not be negative: " + renewals);
    return new Renewal(ttl, fraction, maxHold, renewals);
  }

  /** The TTL each renewal asks for, or null for the lease's own. */
  public @Nullable Duration ttl() {
    return ttl;
  }

  /** The fraction of the TTL after which a renewal is sent. */
  public double interval() {
    return fraction;
  }

  public Duration maxHold() {
    return maxHold;
  }

  public int maxRenewals() {
    return maxRenewals;
  }

  private static void require(boolean condition, String message) {
    if (!condition) {
      throw new IllegalArgumentException(message);
    }
  }

  @Override
  public String toString() {
    return "Renewal[ttl="
        + (ttl == null ? "the lease's" : ttl)
        + ", every "
        + fraction
        + " of it, maxHold="
        + maxHold
        + (maxRenewals == Integer.MAX_VALUE ? "" : ", maxRenewals=" + maxRenewals)
        + "]";
  }
}
