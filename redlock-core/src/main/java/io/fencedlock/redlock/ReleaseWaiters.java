package io.fencedlock.redlock;

import io.fencedlock.redlock.spi.ReleaseFeed;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * The acquires of this client that wait for a held lock, per lock: they hear about its release from
 * the nodes' announcements ({@link ReleaseFeed}, subscribed to a lock's {@link ReleaseChannel}
 * while at least one acquire of this client waits for it) instead of polling. A release is
 * announced by every node that deleted the key; the copies carry the same owner id, and the
 * quorum-th copy wakes one waiter. Notifications only make retries earlier: a lost one costs a
 * retry delay, never safety; the waiters not woken keep their retry timers.
 *
 * <p>The same line of waiters serves local handoffs, the policy that passes a lock between this
 * client's own leases and waiters: a lease that is released while a waiter of its lock is between
 * attempts may pass the lock to that waiter directly ({@link #claimSuccessor}, see {@code
 * DefaultLease}), without an announcement. Thread-safe.
 */
final class ReleaseWaiters {

  private final Nodes nodes;
  private final ReleaseFeed feed;

  /** Guarded by {@code this}. */
  private final Map<String, Channel> channels = new HashMap<>();

  /** Guarded by {@code this}: once set, no successor is claimed. */
  private boolean closing;

  ReleaseWaiters(Nodes nodes, ReleaseFeed feed) {
    this.nodes = nodes;
    this.feed = feed;
    feed.listen(this::onMessage);
  }

  /** One lock's subscription and the acquires waiting on it. Guarded by the outer instance. */
  private static final class Channel {
    final Set<Waiter> waiters = new LinkedHashSet<>();
    final CompletableFuture<Void> subscribed = new CompletableFuture<>();
    String lastReleasedOwner = "";
    int copiesOfLastRelease;
  }

  /** A waiting acquire, as a releasing lease of this client sees it. */
  interface Successor {
    /**
     * Takes this acquire out of its wait if it is between attempts: its retry timer and
     * notifications no longer start an attempt, and it waits for {@link #succeed}. Must not block
     * (it runs under the subscriptions' lock). Returns false if an attempt is in flight or the
     * acquire has ended.
     */
    boolean claim();

    /** Starts the claimed acquire's next attempt as the successor in {@code handoff}. */
    void succeed(Handoff handoff);
  }

  /**
   * One waiting acquire. Call {@link #arm()} before each attempt; the future it returns completes
   * on the first release announced after that, so a release that happens while an attempt is in
   * flight is not missed.
   */
  final class Waiter implements AutoCloseable {
    private final String channel;
    private final CompletableFuture<Void> subscribed;
    private final Successor successor;
    private volatile CompletableFuture<Void> armed = new CompletableFuture<>();

    private Waiter(String channel, CompletableFuture<Void> subscribed, Successor successor) {
      this.channel = channel;
      this.subscribed = subscribed;
      this.successor = successor;
    }

    /** Completes once some node confirmed the subscription; fails if none could. */
    CompletableFuture<Void> subscribed() {
      return subscribed;
    }

    CompletableFuture<Void> arm() {
      CompletableFuture<Void> next = new CompletableFuture<>();
      armed = next;
      return next;
    }

    private void released() {
      armed.complete(null);
    }

    /** Stops waiting; the last waiter of a lock unsubscribes. Idempotent. */
    @Override
    public void close() {
      unregister(this);
    }
  }

  /** Registers a waiter for {@code lockKey}, subscribing on every node if it is the first. */
  Waiter register(String lockKey, Successor successor) {
    String name = ReleaseChannel.of(lockKey);
    Channel channel;
    Waiter waiter;
    boolean first;
    synchronized (this) {
      channel = channels.get(name);
      first = channel == null;
      if (first) {
        channel = new Channel();
        channels.put(name, channel);
      }
      waiter = new Waiter(name, channel.subscribed, successor);
      channel.waiters.add(waiter);
    }
    if (first) {
      subscribe(name, channel.subscribed);
    }
    return waiter;
  }

  private void subscribe(String name, CompletableFuture<Void> subscribed) {
    CompletableFuture<Void> confirmed;
    try {
      confirmed = feed.subscribe(name);
    } catch (RuntimeException e) {
      confirmed = CompletableFuture.failedFuture(e); // e.g. a feed already closed
    }
    confirmed.whenComplete(
        (ok, failure) -> {
          if (failure == null) {
            subscribed.complete(null);
          } else {
            subscribed.completeExceptionally(failure);
          }
        });
  }

  /**
   * Claims the longest-waiting acquire of {@code lockKey} that is between attempts (see {@link
   * Successor#claim}) and sends it to the back of the line; empty if there is none. A claim
   * registers {@code handoffDone} for {@link Nodes#close()} to wait for, under the same lock as
   * {@link #stopHandoffs()}: a client that closes after the claim waits for the handoff.
   */
  synchronized Optional<Successor> claimSuccessor(
      String lockKey, CompletableFuture<Void> handoffDone) {
    if (channels.isEmpty()) {
      return Optional.empty(); // the usual case: nobody of this client waits for any lock
    }
    Channel channel = channels.get(ReleaseChannel.of(lockKey));
    if (channel == null || closing) {
      return Optional.empty();
    }
    for (Waiter waiter : channel.waiters) {
      if (waiter.successor.claim()) {
        nodes.awaitOnClose(handoffDone);
        channel.waiters.remove(waiter);
        channel.waiters.add(waiter);
        return Optional.of(waiter.successor);
      }
    }
    return Optional.empty();
  }

  /**
   * Whether some node announced the release of {@code owner}'s lease of {@code lockKey}, as the
   * last release heard of on that lock while this client waits for it.
   */
  synchronized boolean announced(String lockKey, String owner) {
    Channel channel = channels.get(ReleaseChannel.of(lockKey));
    return channel != null
        && channel.copiesOfLastRelease > 0
        && channel.lastReleasedOwner.equals(owner);
  }

  /**
   * Stops handoffs, for a closing client: a release from now on deletes and announces, so that the
   * lock is left free, not passed to an acquire whose client is going away.
   */
  synchronized void stopHandoffs() {
    closing = true;
  }

  private synchronized void unregister(Waiter waiter) {
    Channel channel = channels.get(waiter.channel);
    if (channel == null || !channel.waiters.remove(waiter) || !channel.waiters.isEmpty()) {
      return;
    }
    channels.remove(waiter.channel);
    try {
      feed.unsubscribe(waiter.channel);
    } catch (RuntimeException closed) {
      // the feed is gone with its connections: nothing is subscribed any more
    }
  }

  /**
   * Wakes one waiter per release, the one that has waited longest: the waiters of this client share
   * its connections, so the first to try would win on every node anyway, and waking all of them
   * only adds attempts that must fail and queue ahead of the winner's next step.
   */
  private void onMessage(String name, @Nullable String owner) {
    String releasedOwner = owner == null ? "" : owner;
    Waiter next;
    synchronized (this) {
      Channel channel = channels.get(name);
      if (channel == null || channel.waiters.isEmpty()) {
        return; // nobody waits
      }
      if (!channel.lastReleasedOwner.equals(releasedOwner)) {
        channel.lastReleasedOwner = releasedOwner;
        channel.copiesOfLastRelease = 0;
      }
      // Each node that deleted the key announces it. Wake a waiter once a quorum has: after
      // only the first copy its retry could reach nodes that have not deleted yet, fail, and
      // then sleep through the rest of the copies until its retry delay.
      if (++channel.copiesOfLastRelease != nodes.quorum()) {
        return;
      }
      next = channel.waiters.iterator().next();
      channel.waiters.remove(next);
      channel.waiters.add(next); // to the back of the line
    }
    next.released();
  }
}
