package io.fencedlock.redlock;

import io.lettuce.core.RedisURI;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.IntFunction;
import java.util.stream.IntStream;

/**
 * Per lock key, the node a contended attempt asks first (see {@link AcquireAttempt}): the same node
 * in every client that names the nodes alike, so that waiters of different processes woken by the
 * same release meet on one node, and only the one it grants asks the others. Chosen by rendezvous
 * hashing over the nodes' identities ({@link #identity}: the socket path, or the resolved address
 * and port), which spreads many keys over the nodes and does not depend on the order in which a
 * client lists them. Not the drivers' labels: every Unix socket has the label {@code null:6379},
 * and one client's host name is another's address. A node that failed to answer a first ask (timed
 * out, failed, uninitialized) is passed over for {@link #FAILURE_MEMORY_NANOS}, so a down node
 * costs a contended attempt a node timeout at most once a second. Thread-safe.
 */
final class LeadNode {
  /** How long a node that failed a first ask is passed over. */
  static final long FAILURE_MEMORY_NANOS = TimeUnit.SECONDS.toNanos(1);

  private final int[] identityHashes;
  private final Ticker ticker;

  /** Per node, when it last failed a first ask; null if it never did. */
  private final AtomicReferenceArray<Long> failedAt;

  LeadNode(int size, IntFunction<String> identity, Ticker ticker) {
    this.identityHashes = IntStream.range(0, size).map(i -> identity.apply(i).hashCode()).toArray();
    this.ticker = ticker;
    this.failedAt = new AtomicReferenceArray<>(size);
  }

  /** The node to ask first for {@code lockKey}. */
  int pick(String lockKey) {
    long now = ticker.read();
    int key = lockKey.hashCode(); // String.hashCode is specified, so every JVM agrees
    int best = -1;
    long bestScore = 0;
    for (int node = 0; node < identityHashes.length; node++) {
      Long failed = failedAt.get(node);
      if (failed != null && now - failed < FAILURE_MEMORY_NANOS) {
        continue;
      }
      long score = score(key, node);
      if (best < 0 || score > bestScore) {
        best = node;
        bestScore = score;
      }
    }
    return best >= 0 ? best : home(lockKey); // every node failed lately: the key's own choice
  }

  /**
   * The node that keeps {@code lockKey}'s waiter queue: the key's own choice, whatever failed
   * lately, so that every client queues on it and every release names from it ({@link Nodes}).
   */
  int home(String lockKey) {
    int key = lockKey.hashCode();
    int best = 0;
    long bestScore = Long.MIN_VALUE;
    for (int node = 0; node < identityHashes.length; node++) {
      long score = score(key, node);
      if (score > bestScore) {
        best = node;
        bestScore = score;
      }
    }
    return best;
  }

  /** Rendezvous score of {@code node} for a key: every bit of both hashes moves it. */
  private long score(int keyHash, int node) {
    return mix(((long) keyHash << 32) | (identityHashes[node] & 0xffffffffL));
  }

  /** Records that {@code node} failed a first ask. */
  void failed(int node) {
    failedAt.set(node, ticker.read());
  }

  /** SplitMix64's finalizer: every bit of the key's and the identity's hash moves the score. */
  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }

  /** What identifies the node at {@code uri} (a URI {@link RedlockConfig} accepted). */
  static String identity(String uri) {
    return NodeAddress.leadIdentity(RedisURI.create(uri));
  }

  /** For tests: the identities' order does not matter, only the identities. */
  static int pick(List<String> identities, String lockKey) {
    return new LeadNode(identities.size(), identities::get, System::nanoTime).pick(lockKey);
  }
}
