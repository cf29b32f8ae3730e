package io.fencedlock.redlock.spi;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;

/**
 * The Redis masters as the algorithm sees them: one asynchronous call per node script, with typed
 * replies. The algorithm decides everything else (quorums, tokens, validity, retries, handoffs,
 * membership); a driver owns connections, script arguments and reply parsing, and timeouts.
 *
 * <p>Contract, which the algorithm's safety relies on:
 *
 * <ul>
 *   <li>Every returned future completes: with the node's reply, or exceptionally (a {@link
 *       TimeoutException} once the node timeout has passed, for lock operations; the admin timeout
 *       for the calls marked so). A request whose future timed out may still run on the node later.
 *   <li>Requests to one node run on it in the order they were sent (one connection), so a release
 *       sent after an acquire can never overtake it, and a request is never re-sent after it may
 *       have run. A request has been sent (or failed) when its method returns: the algorithm sends
 *       a release right behind a lock step whose reply is not in yet. So a lock step ({@link
 *       #lock}, {@link #lockAll}) is never sent twice, not even after a NOSCRIPT reply (which
 *       proves it did not run): the copy would reach the node after that release.
 *   <li>Every node call is atomic on its node (a Lua script or a single command).
 * </ul>
 *
 * Thread-safe; futures may complete on any thread, including the caller's.
 */
public interface NodeDriver extends AutoCloseable {

  /** The number of nodes; they are addressed by index, 0 to size − 1. */
  int size();

  /** A node's name for messages ({@code host:port}, never a password). */
  String label(int node);

  /**
   * Starts connecting to every node and waits at most {@code timeout} for the first connections;
   * nodes that do not answer are tolerated. Keeps the caller's interrupt flag.
   */
  void connect(Duration timeout);

  /** The lock step of an acquire (see {@link LockRequest}). */
  CompletableFuture<LockReply> lock(int node, LockRequest request);

  /**
   * Phase 2 of a fenced acquire (fence.lua): if the lock holds {@code owner}, raises the fence
   * counter and the node's high-water mark to {@code token} (neither ever decreases).
   *
   * @return whether the lock held {@code owner} (if not, nothing was written)
   */
  CompletableFuture<Boolean> writeToken(
      int node, String lockKey, String fenceKey, String owner, long token);

  /**
   * Extend (extend.lua): if the lock holds {@code owner}, makes it expire no sooner than {@code
   * ttlMillis} from now, raising its expiry if it is sooner and never lowering it.
   *
   * @return whether the lock held {@code owner} (if not, nothing was written)
   */
  CompletableFuture<Boolean> lengthen(int node, String lockKey, String owner, long ttlMillis);

  /**
   * Release (release.lua): deletes the lock if it holds {@code owner}, and then, if {@code
   * announceOn} is not null, publishes {@code owner} on that channel. Never touches a fence
   * counter.
   *
   * @return whether a key of {@code owner} was deleted
   */
  CompletableFuture<Boolean> release(
      int node, String lockKey, String owner, @Nullable String announceOn);

  /**
   * Release on the lock's lead node, announced for the whole release (release.lua with the lock's
   * waiter queue, see {@link LockRequest#waiter}): deletes the lock if it holds {@code owner}, and
   * then names the first queued waiter still subscribed to {@code namedPrefix} + its id, publishing
   * "owner\nwaiter\ntoken" there; if no queued waiter listens, publishes "owner\n" on {@code
   * announceOn}. Never touches a fence counter.
   *
   * @return whether a key of {@code owner} was deleted (if not, nothing was announced), and whether
   *     a waiter was named
   */
  CompletableFuture<NamingRelease> releaseNamingNext(
      int node, String lockKey, String owner, String announceOn, String namedPrefix, long token);

  /**
   * Publishes {@code message} on {@code channel} (PUBLISH): announces a release that its lead node
   * could not announce.
   *
   * @return how many subscribers of this node received it
   */
  CompletableFuture<Long> announce(int node, String channel, String message);

  /**
   * The lock step of a fenced acquire of several resources (acquire-all.lua), all or nothing on
   * this node: every lock key is taken for {@code owner} and every fence counter read, or, if any
   * key is another owner's, nothing is written. Refused on a node without its marker. Drivers that
   * do not support several resources at once throw {@link UnsupportedOperationException}.
   */
  default CompletableFuture<MultiLockReply> lockAll(
      int node, List<String> lockKeys, List<String> fenceKeys, String owner, long ttlMillis) {
    throw new UnsupportedOperationException("this driver cannot lock several resources at once");
  }

  /**
   * Phase 2 for several resources (fence-all.lua): if every lock holds {@code owner}, raises each
   * fence counter to its token and the high-water mark to the largest; else writes nothing.
   */
  default CompletableFuture<Boolean> writeTokens(
      int node, List<String> lockKeys, List<String> fenceKeys, String owner, List<Long> tokens) {
    throw new UnsupportedOperationException("this driver cannot lock several resources at once");
  }

  /**
   * Extend for several resources (extend-all.lua): lengthens every key, or none if one is not ours.
   */
  default CompletableFuture<Boolean> lengthenAll(
      int node, List<String> lockKeys, String owner, long ttlMillis) {
    throw new UnsupportedOperationException("this driver cannot lock several resources at once");
  }

  /**
   * Release for several resources (release-all.lua): compare-and-deletes each key that holds {@code
   * owner}, announcing each on its channel if {@code channels} is not null.
   *
   * @return how many keys were deleted
   */
  default CompletableFuture<Long> releaseAll(
      int node, List<String> lockKeys, String owner, @Nullable List<String> channels) {
    throw new UnsupportedOperationException("this driver cannot lock several resources at once");
  }

  /** Reads a node's marker and high-water mark (node timeout). */
  CompletableFuture<NodeMarks> readMarks(int node);

  /** Whether a node has its marker (admin timeout: start-up is patient). */
  CompletableFuture<Boolean> hasMarker(int node);

  /**
   * Names the empty incarnation of a node without its marker (name-empty-node.lua; admin timeout):
   * sets {@link NodeKeys#EMPTY} to {@code freshName} unless it has a name already.
   *
   * @return the incarnation's name, or "" if the node has its marker
   */
  CompletableFuture<String> nameEmptyIncarnation(int node, String freshName);

  /**
   * Gives a node its marker (init-node.lua; admin timeout): sets the marker and the high-water mark
   * to {@code epoch} and drops the incarnation name, unless the node has a marker, or, when {@code
   * incarnation} is not null, unless the node carries that incarnation name.
   */
  CompletableFuture<InitReply> initialize(int node, long epoch, @Nullable String incarnation);

  /**
   * An id of the server process behind a node ({@code run_id}), or "" if unknown (admin timeout).
   */
  CompletableFuture<String> serverId(int node);

  /**
   * Warnings about node settings that silently break the lock or its tokens (no AOF, lazy fsync,
   * eviction), one per problem naming the nodes; never fails (admin timeout).
   */
  CompletableFuture<List<String>> settingsWarnings();

  /** The release announcements of these nodes. */
  ReleaseFeed releases();

  /** Whether the calling thread is one of the driver's own (it delivers replies there). */
  boolean isDriverThread();

  /**
   * Closes every connection and thread. Requests still unanswered fail at once; later calls fail.
   * Idempotent.
   */
  @Override
  void close();
}
