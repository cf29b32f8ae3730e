package io.fencedlock.redlock;

import io.fencedlock.redlock.spi.Environment;

/** What attempts and leases of one {@link DefaultRedlock} share. Immutable; thread-safe. */
record LockContext(
    RedlockConfig config, Environment env, Nodes nodes, KeySpace keys, NodeMembership membership,
    TokenHints hints, ReleaseWaiters releases) {

  Ticker ticker() {
    return config.ticker();
  }

  /** See {@link Nodes#callBoundNanos}. */
  long callBoundNanos() {
    return Nodes.callBoundNanos(config);
  }
}
