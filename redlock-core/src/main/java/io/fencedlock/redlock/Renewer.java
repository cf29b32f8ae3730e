package io.fencedlock.redlock;

import io.fencedlock.redlock.spi.Scheduler;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import org.jspecify.annotations.Nullable;

/**
 * Keeps one lease alive on the client's scheduler (no thread of its own): an extend every
 * {@link Renewal#interval()} of the renewal TTL, retried while it can still finish before the
 * validity runs out, and the lease reported lost ({@link DefaultLease#markLost}) as soon as
 * it cannot: when no retry could finish before the deadline, when the nodes say the lock is no
 * longer ours, or when the policy's cap is reached. Stops for good on release, on loss, and
 * when the client closes. Thread-safe: its steps run on timer and I/O threads, one at a time.
 */
final class Renewer {
  /** What an extend must leave of the validity when it can at the latest finish: a margin. */
  private static final long GUARD_NANOS = 1_000_000;

  private final DefaultLease lease;
  private final LockContext ctx;
  private final Duration ttl;
  private final long intervalNanos;
  private final long holdUntil;
  private final int maxRenewals;
  /** How long one extend can take: it is bounded by the node timeout. */
  private final long attemptNanos;
  /** After a failed extend, when to try again. */
  private final long retryNanos;
  /** Guarded by {@code this}. */
  private int renewals;
  private boolean stopped;
  private Scheduler.@Nullable Task next;

  Renewer(DefaultLease lease, LockContext ctx, Duration ttl, Renewal policy) {
    this.lease = lease;
    this.ctx = ctx;
    this.ttl = ttl;
    this.intervalNanos = Math.max(1, (long) (ttl.toNanos() * policy.interval()));
    this.holdUntil = ctx.ticker().read() + policy.maxHold().toNanos();
    this.maxRenewals = policy.maxRenewals();
    this.attemptNanos = ctx.config().nodeTimeout().toNanos() + GUARD_NANOS;
    this.retryNanos = Math.max(1, Math.min(intervalNanos / 4, ctx.config().nodeTimeout().toNanos()));
  }

  /** Schedules the first renewal one interval from now. */
  void start() {
    schedule(intervalNanos);
  }

  /** Stops renewing (release, loss or a closing client). Idempotent. */
  synchronized void stop() {
    stopped = true;
    if (next != null) {
      next.cancel();
      next = null;
    }
  }

  private synchronized void schedule(long delayNanos) {
    if (stopped) {
      return;
    }
    try {
      next = ctx.env().scheduler().schedule(this::renew, delayNanos);
    } catch (RejectedExecutionException closing) {
      stopped = true; // the client is closing: renewal never outlives it
    }
  }

  private void renew() {
    long now = ctx.ticker().read();
    synchronized (this) {
      next = null;
      if (stopped || !lease.isValid() || ctx.isClosed()) {
        stopped = true;
        return;
      }
      if (renewals >= maxRenewals || now - holdUntil >= 0) {
        stopped = true;
        lease.markLost(LeaseLoss.Reason.RENEWAL_LIMIT, "the renewal policy's cap was reached after "
            + renewals + " renewals", List.of());
        return;
      }
      if (!canFinishInTime(now, 0)) {
        stopped = true;
        lease.markLost(LeaseLoss.Reason.RENEWAL_FAILED, "too little validity left for another renewal to finish",
            List.of());
        return;
      }
      renewals++;
    }
    ctx.metrics().renewal();
    lease.renewAsync(ttl).whenComplete((outcome, failure) -> afterRenewal(now, outcome, failure));
  }

  private void afterRenewal(long started, DefaultLease.@Nullable ExtendOutcome outcome, @Nullable Throwable failure) {
    if (outcome != null && outcome.confirmed()) {
      schedule(Math.max(0, started + intervalNanos - ctx.ticker().read()));
      return;
    }
    long now = ctx.ticker().read();
    synchronized (this) {
      if (stopped || !lease.isValid() || ctx.isClosed()) {
        stopped = true; // released, lost (the lease signals that itself) or closing
        return;
      }
      if (canFinishInTime(now, retryNanos)) {
        schedule(retryNanos);
        return;
      }
      stopped = true;
    }
    lease.markLost(LeaseLoss.Reason.RENEWAL_FAILED,
        "no quorum confirmed a renewal, and no retry could finish before the validity runs out"
            + (failure == null ? "" : ": " + Futures.unwrap(failure).getMessage()),
        outcome == null ? List.of() : outcome.outcomes());
  }

  /** Whether an extend sent after {@code delay} would end before the lease's validity does. */
  private boolean canFinishInTime(long now, long delayNanos) {
    return lease.deadlineNanos() - (now + delayNanos + attemptNanos) > 0;
  }
}
