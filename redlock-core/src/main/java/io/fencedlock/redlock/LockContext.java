package io.fencedlock.redlock;

import io.fencedlock.redlock.spi.Environment;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What attempts and leases of one {@link DefaultRedlock} share. Immutable; thread-safe.
 *
 * @param metrics the configured sink, {@link IsolatedMetrics isolated}: the only way to call it
 */
record LockContext(
    RedlockConfig config,
    RedlockMetrics metrics,
    Environment env,
    Nodes nodes,
    KeySpace keys,
    NodeMembership membership,
    TokenHints hints,
    ReleaseWaiters releases,
    AtomicBoolean closed,
    KeptAlive keptAlive) {

  Ticker ticker() {
    return config.ticker();
  }

  /** Whether the client has begun to close. */
  boolean isClosed() {
    return closed.get();
  }

  /** See {@link Nodes#callBoundNanos}. */
  long callBoundNanos() {
    return Nodes.callBoundNanos(config);
  }
}
