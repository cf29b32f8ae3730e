package io.fencedlock.redlock;

/**
 * What a client reports about itself, for monitoring. The default records nothing; {@code
 * io.fencedlock.redlock.micrometer.MicrometerMetrics} records into a Micrometer registry
 * (Micrometer is an optional dependency, needed only then). Implementations must be thread-safe and
 * fast: they are called on the client's I/O and timer threads. What a method throws is logged (at
 * WARN the first time that method fails) and ignored: it never changes what the client does.
 */
public interface RedlockMetrics {

  /** Records nothing. */
  RedlockMetrics NONE = new RedlockMetrics() {};

  /**
   * Whether anything is recorded: when false, the client does not even collect what only the
   * metrics would use (per-node reply statuses).
   */
  default boolean enabled() {
    return this != NONE;
  }

  /** An acquire call ({@code acquire}, {@code tryAcquire} or their async forms) ended. */
  default void acquired(long nanos, boolean granted) {}

  /** One node's answer to an acquire's lock step. */
  default void nodeReply(NodeStatus status) {}

  /** An extend or renewal ended; {@code confirmed} if a quorum confirmed in time. */
  default void extended(long nanos, boolean confirmed) {}

  /** A release returned (a quorum deleted, a handoff finished, or neither could). */
  default void released(long nanos) {}

  /** A renewal was sent. */
  default void renewal() {}

  /** A lease was lost before its release. */
  default void leaseLost(LeaseLoss.Reason reason) {}

  /** A release passed its lock straight to a waiter of the same client. */
  default void handoff() {}

  /** A node was first seen without its initialization marker and is excluded from quorums. */
  default void nodeExcluded() {}
}
