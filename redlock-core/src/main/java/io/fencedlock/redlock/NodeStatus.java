package io.fencedlock.redlock;

/** What one Redis node answered to one step of an acquire, extend or release. */
public enum NodeStatus {
  /** The node granted the lock (or, for extend and release, acted on our key). */
  GRANTED,
  /** The node refused: the lock is held by another owner there, or is no longer ours. */
  REFUSED,
  /** The node did not answer within the per-node timeout. */
  TIMED_OUT,
  /** The node failed: not connected, wrong password, a script error, a garbled reply. */
  ERROR,
  /**
   * The node has no initialization marker: it restarted without its data, so it may have forgotten
   * locks and fence counters. It is excluded from every quorum until re-admitted.
   */
  UNINITIALIZED,
  /** No answer had arrived when the outcome was already decided by the other nodes. */
  PENDING
}
