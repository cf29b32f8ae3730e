package io.fencedlock.redlock;

import io.fencedlock.redlock.spi.Scheduler;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import org.jspecify.annotations.Nullable;

/**
 * Keeps one lease alive on the client's scheduler (no thread of its own), and tells its holder when
 * it cannot. Two timers:
 *
 * <ul>
 *   <li>renewals: an extend every {@link Renewal#interval()} of the renewal TTL, the first after
 *       that fraction of the shorter of the lease's and the renewal TTL, each no later than the
 *       validity allows, a failed one retried while a retry could still finish before the loss
 *       deadline;
 *   <li>a watchdog at the loss deadline, {@link #lossMarginNanos} before the validity runs out: if
 *       no renewal has moved the deadline by then, the lease is lost, whatever renewals are still
 *       in flight. So the holder hears of the loss while validity is left, unless this process
 *       itself was paused past it (then the loss says {@link LeaseLoss.Reason#EXPIRED}).
 * </ul>
 *
 * The lease is also lost when the nodes say the lock is no longer ours ({@link DefaultLease}
 * reports that itself) or the policy's cap is reached. Stops for good on release, on loss and when
 * the client closes. Thread-safe: its steps run on timer and I/O threads.
 */
final class Renewer {
  private final DefaultLease lease;
  private final LockContext ctx;
  private final Duration ttl;
  private final long intervalNanos;
  private final long firstIntervalNanos;
  private final Duration maxHold;
  private final long holdUntil;
  private final int maxRenewals;

  /** How long one extend can take: it is bounded by the node timeout. */
  private final long attemptNanos;

  /** After a failed extend, when to try again. */
  private final long retryNanos;

  /**
   * How long before the validity runs out the holder is told of a loss (see {@link #marginNanos}),
   * for the TTL of the validity held: the lease's own until a renewal confirms, then the renewal
   * TTL. A margin of the renewal TTL applied to a shorter lease's validity would leave no time to
   * renew it.
   */
  private volatile long lossMarginNanos;

  private final long renewedMarginNanos;

  /**
   * Each node's outcome in the last renewal that failed since one last confirmed (empty if none):
   * what a loss reports, as the watchdog may declare it while a later renewal is still in flight.
   */
  private volatile List<NodeOutcome> failedOutcomes = List.of();

  /** Guarded by {@code this}. */
  private int renewals;

  private boolean stopped;
  private Scheduler.@Nullable Task nextRenewal;
  private Scheduler.@Nullable Task watchdog;

  /**
   * @param leaseTtl the TTL the lease was acquired with
   * @param ttl the TTL each renewal asks for (see {@link #checkedTtl})
   */
  Renewer(DefaultLease lease, LockContext ctx, Duration leaseTtl, Duration ttl, Renewal policy) {
    this.lease = lease;
    this.ctx = ctx;
    this.ttl = ttl;
    this.intervalNanos = Math.max(1, (long) (ttl.toNanos() * policy.interval()));
    this.firstIntervalNanos =
        Math.min(intervalNanos, Math.max(1, (long) (leaseTtl.toNanos() * policy.interval())));
    this.maxHold = policy.maxHold();
    this.holdUntil = ctx.ticker().read() + maxHold.toNanos();
    this.maxRenewals = policy.maxRenewals();
    this.attemptNanos = ctx.config().nodeTimeout().toNanos();
    this.retryNanos =
        Math.max(1, Math.min(intervalNanos / 4, ctx.config().nodeTimeout().toNanos()));
    this.lossMarginNanos = marginNanos(leaseTtl, ctx.config().nodeTimeout());
    this.renewedMarginNanos = marginNanos(ttl, ctx.config().nodeTimeout());
  }

  /**
   * How long before a validity of {@code ttl} runs out the holder is told of a loss: an extend's
   * duration and a twentieth of the TTL (at least 2 ms), time for the holder to stop its work.
   */
  private static long marginNanos(Duration ttl, Duration nodeTimeout) {
    return nodeTimeout.toNanos() + Math.max(2_000_000, ttl.toNanos() / 20);
  }

  /**
   * Checks a renewal policy for a lease of {@code leaseTtl} on a client with {@code config}: the
   * renewal TTL must be valid for it, and both TTLs must leave time to renew in (the lease's for
   * the first renewal, the renewal TTL for the others).
   *
   * @throws IllegalArgumentException otherwise
   */
  static Duration checkedTtl(RedlockConfig config, Duration leaseTtl, Renewal policy) {
    Duration renewTtl = policy.ttl() == null ? leaseTtl : policy.ttl();
    Validity.checkTtl("renewal ttl", renewTtl, config.driftFactor(), config.maxLeaseTtl());
    if (!leavesTimeToRenew(renewTtl, config.nodeTimeout(), config.driftFactor())
        || !leavesTimeToRenew(leaseTtl, config.nodeTimeout(), config.driftFactor())) {
      throw new IllegalArgumentException(
          "renewal ttl "
              + renewTtl
              + " of a lease of ttl "
              + leaseTtl
              + " leaves no time to renew with a node timeout of "
              + config.nodeTimeout());
    }
    return renewTtl;
  }

  /** Whether a validity of {@code ttl} leaves any time to renew in, given the node timeout. */
  static boolean leavesTimeToRenew(Duration ttl, Duration nodeTimeout, double driftFactor) {
    long usable = ttl.toNanos() - Validity.driftNanos(ttl, driftFactor);
    return usable - marginNanos(ttl, nodeTimeout) - nodeTimeout.toNanos() > 0;
  }

  /**
   * Schedules the first renewal (no later than the validity allows) and the watchdog; if no renewal
   * could finish in time any more, declares the lease lost at once, so that the caller of {@link
   * Lease#keepAlive} sees the loss when it returns.
   */
  void start() {
    long now = ctx.ticker().read();
    if (latestStart(now) <= 0) {
      declareLost(now, "too little validity left for a renewal to finish");
      return;
    }
    scheduleRenewal(Math.min(firstIntervalNanos, latestStart(now)));
    scheduleWatchdog(now);
  }

  /** Stops renewing (release, loss or a closing client). Idempotent. */
  synchronized void stop() {
    stopped = true;
    cancel(nextRenewal);
    cancel(watchdog);
    nextRenewal = null;
    watchdog = null;
  }

  private static void cancel(Scheduler.@Nullable Task task) {
    if (task != null) {
      task.cancel();
    }
  }

  /** How long from {@code now} an extend may still start and finish before the loss deadline. */
  private long latestStart(long now) {
    return Math.max(0, lease.deadlineNanos() - lossMarginNanos - attemptNanos - now);
  }

  private synchronized void scheduleRenewal(long delayNanos) {
    if (stopped) {
      return;
    }
    try {
      nextRenewal = ctx.env().scheduler().schedule(this::renew, delayNanos);
    } catch (RejectedExecutionException closing) {
      stopped = true; // the client is closing: renewal never outlives it
    }
  }

  private synchronized void scheduleWatchdog(long now) {
    if (stopped) {
      return;
    }
    try {
      watchdog =
          ctx.env()
              .scheduler()
              .schedule(this::watch, Math.max(0, lease.deadlineNanos() - lossMarginNanos - now));
    } catch (RejectedExecutionException closing) {
      stopped = true;
    }
  }

  /** At the loss deadline: lost unless a renewal moved the deadline meanwhile. */
  private void watch() {
    long now = ctx.ticker().read();
    synchronized (this) {
      watchdog = null;
      if (stopped || ctx.isClosed() || lease.isOver()) {
        stopped = true;
        return;
      }
    }
    if (lease.deadlineNanos() - lossMarginNanos - now > 0) {
      scheduleWatchdog(now); // a renewal confirmed meanwhile
      return;
    }
    declareLost(now, "no renewal confirmed in time");
  }

  private void renew() {
    long now = ctx.ticker().read();
    synchronized (this) {
      nextRenewal = null;
      if (stopped || ctx.isClosed() || lease.isOver()) {
        stopped = true;
        return;
      }
    }
    if (renewals >= maxRenewals || now - holdUntil >= 0) {
      stop();
      lease.markLost(
          LeaseLoss.Reason.RENEWAL_LIMIT,
          renewals >= maxRenewals
              ? "Renewal.maxRenewals (" + maxRenewals + ") was reached; raise it to renew longer"
              : "Renewal.maxHold ("
                  + maxHold
                  + ") was reached after "
                  + renewals
                  + " renewals; raise it to keep the lease alive longer",
          List.of());
      return;
    }
    if (latestStart(now) <= 0) {
      declareLost(now, "too little validity left for another renewal to finish");
      return;
    }
    synchronized (this) {
      renewals++;
    }
    ctx.metrics().renewal();
    lease.renewAsync(ttl).whenComplete((outcome, failure) -> afterRenewal(now, outcome, failure));
  }

  private void afterRenewal(
      long started, DefaultLease.@Nullable ExtendOutcome outcome, @Nullable Throwable failure) {
    long now = ctx.ticker().read();
    if (outcome != null && outcome.confirmed()) {
      failedOutcomes = List.of();
      lossMarginNanos = renewedMarginNanos; // the validity held is now the renewal TTL's
      scheduleRenewal(Math.min(Math.max(0, started + intervalNanos - now), latestStart(now)));
      return;
    }
    if (outcome != null) {
      failedOutcomes = outcome.outcomes();
    }
    synchronized (this) {
      if (stopped || ctx.isClosed() || lease.isOver()) {
        stopped = true; // released, lost (the lease reports that itself) or closing
        return;
      }
    }
    if (latestStart(now) - retryNanos > 0) {
      scheduleRenewal(retryNanos);
    }
    // Otherwise the watchdog declares the loss at the loss deadline (or at once if it is past).
    if (latestStart(now) <= 0 && lease.deadlineNanos() - lossMarginNanos - now <= 0) {
      declareLost(
          now,
          "no quorum confirmed a renewal in time"
              + (failure == null ? "" : ": " + Futures.unwrap(failure).getMessage()));
    }
  }

  /**
   * The lease is lost: expired if its validity already ran out (this process was paused), else
   * before it.
   */
  private void declareLost(long now, String why) {
    stop();
    boolean expired = now - lease.deadlineNanos() >= 0;
    lease.markLost(
        expired ? LeaseLoss.Reason.EXPIRED : LeaseLoss.Reason.RENEWAL_FAILED,
        expired
            ? "the validity ran out before the holder could be told (this process was likely"
                + " paused): "
                + why
            : why,
        failedOutcomes);
  }
}
