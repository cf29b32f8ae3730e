package io.fencedlock.redlock.internal;

import io.fencedlock.redlock.RedlockConfig;
import io.fencedlock.redlock.Ticker;

/** What attempts and leases of one {@link DefaultRedlock} share. Immutable; thread-safe. */
record LockContext(
    RedlockConfig config, Nodes nodes, KeySpace keys, OwnerIds owners, NodeMembership membership,
    TokenHints hints, ReleaseSubscriptions releases) {

  Ticker ticker() {
    return config.ticker();
  }

  /** See {@link Nodes#callBoundNanos}. */
  long callBoundNanos() {
    return Nodes.callBoundNanos(config);
  }
}
