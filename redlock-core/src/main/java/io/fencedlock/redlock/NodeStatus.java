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
  /**
   * No reply yet when the attempt ended: the other nodes had already decided it. The node may be
   * healthy but slower than those; it has not timed out (a timeout is {@link #TIMED_OUT}). With a
   * detail starting {@code "not asked"}, the node was not sent this step at all.
   */
  NO_REPLY_YET
}
