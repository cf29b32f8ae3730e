package io.fencedlock.redlock;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A lock on several resources at once, held on a quorum of nodes, with a fencing token per resource
 * ({@link Redlock#acquireAll}). On every node all of its keys were taken together or none was, and
 * the same holds for extend; the lease exists only if a quorum took all of them. Use it with
 * try-with-resources; {@link #close()} releases. Thread-safe.
 */
public interface MultiLease extends AutoCloseable {

  /** The locked resources, in the order given. */
  List<String> resources();

  /** The random 128-bit owner id stored in every lock key, as 32 hex digits. */
  String ownerId();

  /**
   * The fencing token of one resource, with the same guarantees as {@link Lease#fencingToken()}.
   *
   * @throws IllegalArgumentException if {@code resource} is not one of this lease's
   */
  long fencingToken(String resource);

  /** Every resource's fencing token, in resource order. */
  Map<String, Long> fencingTokens();

  /** As {@link Lease#remainingValidity()}. */
  Duration remainingValidity();

  /** As {@link Lease#isValid()}. */
  boolean isValid();

  /**
   * Makes every lock last at least {@code ttl} from now on each node where all of them are still
   * ours (never shortening, never re-creating a key); true if a quorum confirmed in time. Each call
   * counts towards {@link RedlockConfig#maxExtensions()}, succeeded or not.
   *
   * @throws IllegalArgumentException if {@code ttl} is invalid, as for {@link Lease#extend}
   * @throws LockExpiredException if the validity had already run out, or the lease was released
   * @throws IllegalStateException if the configured maximum number of extensions was reached
   */
  boolean extend(Duration ttl);

  /**
   * Deletes every lock key that still holds this lease's owner id, on every node; returns once a
   * quorum of nodes has answered (the deletes on the others go on in the background, and the
   * client's {@code close()} waits for them).
   *
   * @return true if the lease was still valid when released
   */
  boolean release();

  /** Releases, like {@link #release()}; never throws. */
  @Override
  void close();
}
