package io.fencedlock.redlock;

import java.time.Duration;
import java.util.Objects;

/**
 * How {@link Redlock#withLock} and {@link Redlock#newLock} hold a lock: the lease TTL, how long to
 * wait for the lock, the renewal that keeps the lease alive while work runs, and what happens to
 * the work when the lease is lost. Immutable.
 *
 * @param ttl the lease TTL (renewed while the work runs)
 * @param maxWait how long to wait for the lock ({@code withLock}; {@code Lock.lock()} waits as long
 *     as it takes)
 * @param renewal the renewal policy
 * @param interruptOnLoss whether the working thread is interrupted (sync) or the work's stage
 *     cancelled (async) when the lease is lost; otherwise the work must check {@link
 *     Lease#checkValid()} itself
 */
public record LockOptions(
    Duration ttl, Duration maxWait, Renewal renewal, boolean interruptOnLoss) {

  /** Default lease TTL. */
  public static final Duration DEFAULT_TTL = Duration.ofSeconds(10);

  /** Default wait for the lock. */
  public static final Duration DEFAULT_MAX_WAIT = Duration.ofSeconds(30);

  public LockOptions {
    Objects.requireNonNull(ttl, "ttl");
    Objects.requireNonNull(maxWait, "maxWait");
    Objects.requireNonNull(renewal, "renewal");
  }

  /** TTL 10 s, a 30 s wait, {@link Renewal#defaults()}, the work interrupted on loss. */
  public static LockOptions defaults() {
    return new LockOptions(DEFAULT_TTL, DEFAULT_MAX_WAIT, Renewal.defaults(), true);
  }

  public LockOptions withTtl(Duration leaseTtl) {
    return new LockOptions(leaseTtl, maxWait, renewal, interruptOnLoss);
  }

  public LockOptions withMaxWait(Duration wait) {
    return new LockOptions(ttl, wait, renewal, interruptOnLoss);
  }

  public LockOptions withRenewal(Renewal policy) {
    return new LockOptions(ttl, maxWait, policy, interruptOnLoss);
  }

  public LockOptions withInterruptOnLoss(boolean interrupt) {
    return new LockOptions(ttl, maxWait, renewal, interrupt);
  }
}
