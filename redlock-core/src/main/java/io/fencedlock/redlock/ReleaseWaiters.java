package io.fencedlock.redlock;

import io.fencedlock.redlock.spi.ReleaseFeed;
import io.fencedlock.redlock.spi.Scheduler;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;

/**
 * The acquires of this client that wait for a held lock, per lock: they hear about its release from
 * the nodes' announcements ({@link ReleaseFeed}) instead of polling. While at least one acquire of
 * this client waits for a lock (and for a while after), the client listens on two channels of it
 * ({@link ReleaseChannel}): the lock's own, and its own channel of the lock, on which the lock's
 * lead node names this client as the next to try. Announcements make retries earlier: a lost one
 * costs a retry delay, never safety; the waiters not woken keep their retry timers. (A retry one
 * starts deletes the announced owner's key first, so only the library's release scripts may publish
 * on these channels.) How a release is announced, and what each message wakes ({@link #onMessage}):
 *
 * <ul>
 *   <li>A fenced lease that took the lock's lead node is announced by that node alone ({@link
 *       Nodes#releaseLease}). Its release.lua names the first client in the lock's waiter queue
 *       there that still listens, on that client's own channel, with the released lease's token:
 *       only that client wakes a waiter, whose attempt then asks every node at once, predicting the
 *       token after the one it was told. No other client hears of the release, so none of them
 *       races it. If no queued client listens, the lead tells every client on the lock's channel
 *       ("owner\n"), as the other nodes do if the lead could not delete.
 *   <li>Any other release (unfenced, or a lease without the lead) is announced by every node that
 *       deleted, with the owner id as the message; a client wakes a waiter at the quorum-th copy:
 *       after only the first its retry could reach nodes that have not deleted yet, fail, and then
 *       sleep through the rest of the copies until its retry delay.
 * </ul>
 *
 * <p>A client queues on the lead node through its waiters' attempts ({@link WaiterTicket}); it is
 * taken off the queue when named, when one of its attempts is granted there, or when its time there
 * is over (soon after its next attempt was due, see {@code WaitingAcquire}). A naming message that
 * finds none of this client's acquires of the lock waiting any more is passed on to every waiting
 * client; so is one whose waiter ends without acting on it (named while an attempt was in flight,
 * its acquire then gave up, was cancelled or its client closed), after this client's other waiters
 * of the lock, if any, were offered it. Each release wakes one waiter of a client, the one that has
 * waited longest: the waiters of one client share its connections, so the first to try would win on
 * every node anyway, and waking all of them only adds attempts that must fail.
 *
 * <p>When the last waiter of a lock got the lock, the subscriptions outlive it for a while ({@link
 * #LINGER_NANOS}, at most {@link #MAX_IDLE_LOCKS} locks): a client that won a contended lock is
 * likely to wait for it again a lease later, as every contender of a busy lock does, and
 * subscribing again would cost two commands to every node and a round trip before its next attempt,
 * at every wait. A client whose last waiter gave up (or was cancelled) unsubscribes at once, as it
 * may still be queued on the lead node, which then passes it over instead of naming it. A lingering
 * subscription is made afresh when a wait would reuse it after {@link #RENEW_AFTER_NANOS}, so that
 * one a node never confirmed (a feed need not subscribe again by itself) is not kept longer than
 * that; a lock that always has a waiter of this client keeps its first subscription, as before.
 * Release copies heard while nobody waits are counted, not acted on (a naming message is passed on,
 * as above), and a renewed subscription keeps the count. A client that got the lock without the
 * lead node's grant may still be queued there, and is named while it lingers: it passes the release
 * on, as above.
 *
 * <p>The same line of waiters serves local handoffs, the policy that passes a lock between this
 * client's own leases and waiters: a lease that is released while a waiter of its lock is between
 * attempts may pass the lock to that waiter directly ({@link #claimSuccessor}, see {@code
 * DefaultLease}), without an announcement. Thread-safe.
 */
final class ReleaseWaiters {

  /**
   * How long the subscriptions of a lock are kept after its last waiter got it, at least (at most
   * twice that): long enough for the contenders of a busy lock, whose next wait starts a lease
   * later; short enough that few subscriptions of locks nobody waits for stay on the nodes.
   */
  static final long LINGER_NANOS = TimeUnit.SECONDS.toNanos(1);

  /** A lingering subscription older than this is made afresh when a wait would reuse it. */
  static final long RENEW_AFTER_NANOS = TimeUnit.SECONDS.toNanos(10);

  /** At most this many locks keep their subscriptions without a waiter; the oldest go first. */
  static final int MAX_IDLE_LOCKS = 256;

  private final Nodes nodes;
  private final ReleaseFeed feed;
  private final Scheduler timer;
  private final Ticker ticker;

  /** This client's id in the lead nodes' waiter queues and in its own channels' names. */
  private final String clientId;

  /** By the lock's channel. Guarded by {@code this}. */
  private final Map<String, Channel> channels = new HashMap<>();

  /** The same channels, by this client's own channel of each lock. Guarded by {@code this}. */
  private final Map<String, Channel> byOwnChannel = new HashMap<>();

  /**
   * The channels without waiters whose subscriptions are kept, the longest idle first. Guarded by
   * {@code this}.
   */
  private final Set<Channel> idle = new LinkedHashSet<>();

  /** Counts the sweeps of {@link #idle}. Guarded by {@code this}. */
  private long sweeps;

  /** Whether a sweep of {@link #idle} is scheduled. Guarded by {@code this}. */
  private boolean sweepScheduled;

  /** Guarded by {@code this}: once set, no successor is claimed. */
  private boolean closing;

  ReleaseWaiters(Nodes nodes, ReleaseFeed feed, Scheduler timer, Ticker ticker, String clientId) {
    this.nodes = nodes;
    this.feed = feed;
    this.timer = timer;
    this.ticker = ticker;
    this.clientId = clientId;
    feed.listen(this::onMessage);
  }

  /** One lock's subscriptions and the acquires waiting on it. Guarded by the outer instance. */
  private static final class Channel {
    final String name;
    final String own;
    final Set<Waiter> waiters = new LinkedHashSet<>();
    final CompletableFuture<Void> subscribed = new CompletableFuture<>();
    String lastReleasedOwner = "";
    int copiesOfLastRelease;

    /** The sweep count when the last waiter left (see {@link #sweepIdle}). */
    long idleSince;

    /** The ticker's reading when the subscriptions were sent. */
    final long subscribedAt;

    Channel(String name, String own, long subscribedAt) {
      this.name = name;
      this.own = own;
      this.subscribedAt = subscribedAt;
    }
  }

  /**
   * What wakes a waiter: whether an announcement named this client, so that no other client was
   * woken with it; the released owner (null for none); and the released lease's token, if told (0
   * if not).
   */
  record Wake(boolean named, @Nullable String releasedOwner, long token) {
    /** The subscriptions' confirmation: no release. */
    static final Wake ANY = new Wake(false, null, 0);
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
    private final Channel channel;
    private final Successor successor;
    private volatile CompletableFuture<Wake> armed = new CompletableFuture<>();

    /** Set, under the outer lock, once this waiter has ended without the lock. */
    private volatile boolean endedWithoutLock;

    /** Whether a wake this waiter never acted on was handed on ({@link #handOn}). */
    private final AtomicBoolean handedOn = new AtomicBoolean();

    private Waiter(Channel channel, Successor successor) {
      this.channel = channel;
      this.successor = successor;
    }

    /** Completes once some node confirmed both subscriptions; fails if none could. */
    CompletableFuture<Void> subscribed() {
      return channel.subscribed;
    }

    /** Completes with what the next announcement tells this waiter. */
    CompletableFuture<Wake> arm() {
      CompletableFuture<Wake> next = new CompletableFuture<>();
      armed = next;
      return next;
    }

    private void released(Wake wake) {
      CompletableFuture<Wake> current = armed;
      current.complete(wake);
      if (endedWithoutLock && armed == current) {
        handOn(this, wake); // it ended meanwhile, and no attempt of it will act on the wake
      }
    }

    /**
     * Stops waiting; {@code granted}: because the acquire got the lock, so that the subscriptions
     * of the lock's last waiter linger (see the class comment). Idempotent. A waiter that ends
     * without the lock hands on a wake it was given and did not act on (no attempt armed since).
     */
    void end(boolean granted) {
      if (unregister(this, granted) && !granted) {
        Wake unheeded = armed.getNow(null);
        if (unheeded != null) {
          handOn(this, unheeded);
        }
      }
    }

    /** Stops waiting without the lock: {@code end(false)}. */
    @Override
    public void close() {
      end(false);
    }
  }

  /** This client's id in the lock's waiter queue on its lead node ({@link WaiterTicket}). */
  String clientId() {
    return clientId;
  }

  /**
   * Registers a waiter for {@code lockKey}; the first of a lock subscribes to its two channels on
   * every node, unless they still linger from an earlier wait.
   */
  Waiter register(String lockKey, Successor successor) {
    String name = ReleaseChannel.of(lockKey);
    Channel channel;
    Waiter waiter;
    boolean first;
    synchronized (this) {
      channel = channels.get(name);
      Channel renewed = null;
      if (channel != null
          && idle.remove(channel)
          && (channel.subscribed.isCompletedExceptionally()
              || ticker.read() - channel.subscribedAt > RENEW_AFTER_NANOS)) {
        drop(channel); // subscribe afresh
        renewed = channel;
        channel = null;
      }
      first = channel == null;
      if (first) {
        channel = new Channel(name, ReleaseChannel.named(lockKey, clientId), ticker.read());
        if (renewed != null) { // the copies of a release heard so far still count
          channel.lastReleasedOwner = renewed.lastReleasedOwner;
          channel.copiesOfLastRelease = renewed.copiesOfLastRelease;
        }
        channels.put(name, channel);
        byOwnChannel.put(channel.own, channel);
      }
      waiter = new Waiter(channel, successor);
      channel.waiters.add(waiter);
    }
    if (first) {
      CompletableFuture<Void> subscribed = channel.subscribed;
      CompletableFuture.allOf(subscribe(channel.name), subscribe(channel.own))
          .whenComplete(
              (ok, failure) -> {
                if (failure == null) {
                  subscribed.complete(null);
                } else {
                  subscribed.completeExceptionally(failure);
                }
              });
    }
    return waiter;
  }

  private CompletableFuture<Void> subscribe(String name) {
    try {
      return feed.subscribe(name);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e); // e.g. a feed already closed
    }
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
   * last release heard of on that lock while this client listens on it.
   */
  synchronized boolean announced(String lockKey, String owner) {
    Channel channel = channels.get(ReleaseChannel.of(lockKey));
    return channel != null
        && channel.copiesOfLastRelease > 0
        && channel.lastReleasedOwner.equals(owner);
  }

  /**
   * The owner whose release was announced last on {@code lockKey}'s channels while this client
   * listened, or null if none: an owner id is announced only once its owner released it (or for a
   * failed local handoff's attempt, which never became a lease), and never used again, so an
   * attempt may delete it wherever it is left (see {@code WaitingAcquire}).
   */
  synchronized @Nullable String lastAnnouncedOwner(String lockKey) {
    Channel channel = channels.get(ReleaseChannel.of(lockKey));
    return channel == null || channel.copiesOfLastRelease == 0 ? null : channel.lastReleasedOwner;
  }

  /**
   * Stops handoffs, for a closing client: a release from now on deletes and announces, so that the
   * lock is left free, not passed to an acquire whose client is going away.
   */
  synchronized void stopHandoffs() {
    closing = true;
  }

  /**
   * Removes {@code waiter}; the last waiter of a lock leaves its subscriptions to linger if it got
   * the lock (see the class comment) and they did not fail, else unsubscribes. Returns whether it
   * was registered until now.
   */
  private synchronized boolean unregister(Waiter waiter, boolean granted) {
    Channel channel = waiter.channel;
    if (!channel.waiters.remove(waiter)) {
      return false;
    }
    waiter.endedWithoutLock = !granted;
    if (!channel.waiters.isEmpty() || channels.get(channel.name) != channel) {
      return true;
    }
    if (!granted || channel.subscribed.isCompletedExceptionally()) {
      drop(channel);
      return true;
    }
    channel.idleSince = sweeps;
    idle.add(channel);
    if (idle.size() > MAX_IDLE_LOCKS) {
      drop(idle.iterator().next());
    }
    scheduleSweep();
    return true;
  }

  /**
   * A release woke {@code ended}, which ended without acting on it: the next waiter of this client
   * on the lock wakes instead; if there is none and the lead named this client (so told nobody
   * else), every waiting client is told ({@link #passOn}). Once per waiter.
   */
  private void handOn(Waiter ended, Wake wake) {
    if (!ended.handedOn.compareAndSet(false, true)) {
      return;
    }
    Waiter next = null;
    synchronized (this) {
      Channel channel = ended.channel;
      if (channels.get(channel.name) == channel && !channel.waiters.isEmpty()) {
        next = channel.waiters.iterator().next();
        channel.waiters.remove(next);
        channel.waiters.add(next); // to the back of the line
      }
    }
    if (next != null) {
      next.released(wake);
    } else if (wake.named()) {
      passOn(ended.channel.own, wake.releasedOwner()); // outside the lock: it sends
    }
  }

  /** Schedules the next sweep of the idle subscriptions unless one is due. Holds the lock. */
  private void scheduleSweep() {
    if (sweepScheduled || idle.isEmpty()) {
      return;
    }
    sweepScheduled = true; // before: a scheduler may run the sweep at once
    try {
      timer.schedule(new Sweep(this), LINGER_NANOS);
    } catch (RejectedExecutionException closed) {
      sweepScheduled = false; // the client is closing: its feed goes with its connections
    }
  }

  /**
   * Drops the subscriptions that were idle already at the last sweep, so idle for {@link
   * #LINGER_NANOS} to twice that; sweeps again while any are left.
   */
  private synchronized void sweepIdle() {
    sweepScheduled = false;
    for (Iterator<Channel> it = idle.iterator(); it.hasNext(); ) {
      Channel channel = it.next();
      if (channel.idleSince == sweeps) {
        break; // the rest went idle later
      }
      it.remove();
      drop(channel);
    }
    sweeps++;
    scheduleSweep();
  }

  /** The task that runs {@link #sweepIdle}; a type of its own, so that tests can tell it. */
  static final class Sweep implements Runnable {
    private final ReleaseWaiters waiters;

    private Sweep(ReleaseWaiters waiters) {
      this.waiters = waiters;
    }

    @Override
    public void run() {
      waiters.sweepIdle();
    }
  }

  /** Forgets {@code channel} and unsubscribes from it. Holds the lock. */
  private void drop(Channel channel) {
    idle.remove(channel);
    channels.remove(channel.name);
    byOwnChannel.remove(channel.own);
    // Unsubscribing under the lock keeps a new first waiter's subscribe after it.
    try {
      feed.unsubscribe(channel.name);
      feed.unsubscribe(channel.own);
    } catch (RuntimeException closed) {
      // the feed is gone with its connections: nothing is subscribed any more
    }
  }

  /**
   * Wakes at most one waiter per release (see the class comment): on this client's own channel of
   * the lock ("owner\nclient\ntoken") at once, told it was named and the token; on the lock's
   * channel, at the first copy of a message for every client ("owner\n") and at the quorum-th copy
   * of one node's message ("owner").
   */
  private void onMessage(String name, @Nullable String message) {
    String text = message == null ? "" : message;
    int newline = text.indexOf('\n');
    String releasedOwner = newline < 0 ? text : text.substring(0, newline);
    Waiter next = null;
    Wake wake = Wake.ANY;
    boolean nobodyToName = false;
    synchronized (this) {
      Channel channel = channels.get(name);
      boolean named = channel == null;
      if (named) {
        channel = byOwnChannel.get(name);
      }
      if (channel == null) {
        nobodyToName = named; // nobody waits
      } else {
        // Counted also while nobody waits (the subscriptions linger): a wait that starts now
        // knows the release was announced (announced()).
        if (!channel.lastReleasedOwner.equals(releasedOwner)) {
          channel.lastReleasedOwner = releasedOwner;
          channel.copiesOfLastRelease = 0;
        }
        int copies = ++channel.copiesOfLastRelease;
        if (channel.waiters.isEmpty()) {
          nobodyToName = named;
        } else if (copies == (newline < 0 ? nodes.quorum() : 1)) {
          wake = new Wake(named, releasedOwner, named ? tokenIn(text) : 0);
          next = channel.waiters.iterator().next();
          channel.waiters.remove(next);
          channel.waiters.add(next); // to the back of the line
        }
      }
    }
    if (next != null) {
      next.released(wake);
    } else if (nobodyToName) {
      passOn(name, releasedOwner); // outside the lock: it sends
    }
  }

  /**
   * Tells every waiting client of a release the lead node named this client for, when this client
   * no longer waits for that lock (its last acquire ended after its subscriptions' last
   * confirmation on the lead): the lead took it off the queue and told nobody else, who would
   * otherwise sleep until their retry delay.
   */
  private void passOn(String ownChannel, String releasedOwner) {
    String suffix = ":" + clientId;
    if (ownChannel.startsWith(ReleaseChannel.NAMED_PREFIX) && ownChannel.endsWith(suffix)) {
      String lockKey =
          ownChannel.substring(
              ReleaseChannel.NAMED_PREFIX.length(), ownChannel.length() - suffix.length());
      nodes.tellEveryone(lockKey, releasedOwner, -1);
    }
  }

  /** The token of a naming message "owner\nclient\ntoken", or 0 if it has none. */
  private static long tokenIn(String text) {
    int last = text.lastIndexOf('\n');
    try {
      return Math.max(0, Long.parseLong(text.substring(last + 1)));
    } catch (NumberFormatException notAToken) {
      return 0; // a hint only: without it the attempt learns the counter itself
    }
  }
}
