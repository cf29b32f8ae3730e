package io.fencedlock.sim;

import io.fencedlock.redlock.spi.InitReply;
import io.fencedlock.redlock.spi.LockReply;
import io.fencedlock.redlock.spi.LockRequest;
import io.fencedlock.redlock.spi.NamingRelease;
import io.fencedlock.redlock.spi.NodeKeys;
import io.fencedlock.redlock.spi.NodeMarks;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * What each of redlock-core's Lua scripts (and the two plain commands the Lettuce driver sends)
 * does to a node's keys, line for line, on a {@link NodeStore}: the model a simulated node runs.
 * Each method is one atomic script run; its reply is the typed reply the Lettuce driver would parse
 * from the script's. The differential test ({@code NodeModelFidelityIT}) runs the same calls on a
 * real redis-server and compares every reply and the state.
 *
 * <p>With {@code bugs}, the node-side teeth of {@link Bug} are put back here. Not thread-safe.
 */
public final class ScriptModel {
  /** What the stale-first-seen bug names every empty incarnation. */
  static final String STALE_NAME = "the-one-empty-incarnation";

  /** How many queued waiters release.lua tries to name before it tells everyone instead. */
  static final int MAX_NAMING_TRIES = 8;

  private final NodeStore store;
  private final KeyObserver observer;
  private final boolean shorteningExtend;
  private final boolean staleFirstSeen;
  private final boolean naiveToken;
  private final boolean markerCheck;

  public ScriptModel(NodeStore store, Set<Bug> bugs, KeyObserver observer) {
    this.store = store;
    this.observer = observer;
    this.shorteningExtend = bugs.contains(Bug.SHORTENING_EXTEND);
    this.staleFirstSeen = bugs.contains(Bug.STALE_FIRST_SEEN);
    this.naiveToken = bugs.contains(Bug.NAIVE_INCR_TOKEN);
    this.markerCheck = !bugs.contains(Bug.NO_MARKER_CHECK);
  }

  public NodeStore store() {
    return store;
  }

  /** acquire.lua (fenced), handoff.lua (unfenced with a predecessor), or SET NX PX. */
  public LockReply lock(LockRequest r) {
    if (r.fenceKey() != null) {
      return acquire(
          r.lockKey(),
          r.fenceKey(),
          r.owner(),
          r.ttlMillis(),
          r.predictedToken(),
          r.predecessorOwner(),
          r.waiter(),
          Math.max(1, r.waitMillis()));
    }
    // unfenced requests ignore the waiter: NodeScriptCall only sends one with acquire.lua
    if (r.predecessorOwner() != null) {
      return handoff(r.lockKey(), r.owner(), r.ttlMillis(), r.predecessorOwner());
    }
    if (setLock(r.lockKey(), r.owner(), r.ttlMillis())) {
      return new LockReply.Granted(0, false);
    }
    return new LockReply.Refused(-1, 0, null);
  }

  private LockReply acquire(
      String lockKey,
      String fenceKey,
      String owner,
      long ttl,
      long predicted,
      @Nullable String predecessor,
      @Nullable String waiter,
      long waitMillis) {
    if (predecessor != null && !predecessor.isEmpty()) {
      deleteIfHeldBy(lockKey, predecessor);
    }
    String epoch = store.get(NodeKeys.MARKER);
    if (markerCheck && epoch == null) {
      return new LockReply.Uninitialized();
    }
    String f = store.get(fenceKey);
    String fence = f != null ? f : epoch != null ? epoch : "0";
    if (!setLock(lockKey, owner, ttl)) {
      String holder = store.get(lockKey);
      if (!owner.equals(holder)) {
        if (waiter != null) {
          wait(NodeKeys.waiters(lockKey), waiter, waitMillis);
        }
        return new LockReply.Refused(store.pttl(lockKey), Long.parseLong(fence), holder);
      }
    }
    if (waiter != null) {
      store.zrem(NodeKeys.waiters(lockKey), waiter);
    }
    if (naiveToken) {
      long old = Long.parseLong(fence);
      store.set(fenceKey, Long.toString(old + 1));
      return new LockReply.Granted(old, false);
    }
    long counter = Long.parseLong(fence);
    if (predicted <= counter) {
      return new LockReply.Granted(counter, false);
    }
    store.set(fenceKey, Long.toString(predicted));
    raiseHighWater(predicted);
    return new LockReply.Granted(predicted, true);
  }

  private LockReply handoff(String lockKey, String owner, long ttl, String predecessor) {
    deleteIfHeldBy(lockKey, predecessor);
    if (setLock(lockKey, owner, ttl)) {
      return new LockReply.Granted(0, false);
    }
    String holder = store.get(lockKey);
    if (owner.equals(holder)) {
      return new LockReply.Granted(0, false);
    }
    return new LockReply.Refused(store.pttl(lockKey), 0, holder);
  }

  /** fence.lua. */
  public boolean writeToken(String lockKey, String fenceKey, String owner, long token) {
    if (!owner.equals(store.get(lockKey))) {
      return false;
    }
    if (naiveToken) {
      return true; // the naive scheme has no phase 2: nothing is written back
    }
    if (token > counter(store.get(fenceKey))) {
      store.set(fenceKey, Long.toString(token));
    }
    raiseHighWater(token);
    return true;
  }

  /** extend.lua: lengthen only (or, with the old bug, set the expiry whatever it was). */
  public boolean lengthen(String lockKey, String owner, long ttlMillis) {
    if (!owner.equals(store.get(lockKey))) {
      return false;
    }
    long pttl = store.pttl(lockKey);
    if (shorteningExtend || (pttl >= 0 && pttl < ttlMillis)) {
      store.pexpire(lockKey, ttlMillis);
    }
    return true;
  }

  /**
   * release.lua without the waiter queue (announced or not: the model of the node does not see
   * PUBLISH); the lead node's form is {@link #releaseNamingNext}. Whether it deleted.
   */
  public boolean release(String lockKey, String owner) {
    return deleteIfHeldBy(lockKey, owner);
  }

  /** release.lua's reply for what {@link #releaseNamingNext} returned. */
  public static NamingRelease reply(@Nullable String named) {
    if (named == null) {
      return NamingRelease.KEPT;
    }
    return named.isEmpty() ? NamingRelease.TOLD_EVERYONE : NamingRelease.NAMED;
  }

  /**
   * release.lua on the lead node, with the waiter queue: null when nothing was deleted (nothing is
   * announced); otherwise the waiter to name, or "" for none. Waiters whose wait is over are
   * dropped, then waiters are taken off the front until one is {@code listening}, at most {@value
   * #MAX_NAMING_TRIES}.
   */
  public @Nullable String releaseNamingNext(
      String lockKey, String owner, Predicate<String> listening) {
    if (!deleteIfHeldBy(lockKey, owner)) {
      return null;
    }
    String queue = NodeKeys.waiters(lockKey);
    if (!store.exists(queue)) {
      return "";
    }
    store.zremUpTo(queue, store.nowMillis());
    for (int i = 0; i < MAX_NAMING_TRIES; i++) {
      String first = store.zpopmin(queue);
      if (first == null) {
        break;
      }
      if (listening.test(first)) {
        return first;
      }
    }
    return "";
  }

  /**
   * acquire.lua's refusal with a waiter: ZADD unless queued until later, then PEXPIRE if it would
   * expire first.
   */
  private void wait(String queue, String waiter, long waitMillis) {
    long deadline = store.nowMillis() + waitMillis;
    Long queued = store.zrange(queue).get(waiter);
    if (queued == null || queued < deadline) {
      store.zadd(queue, deadline, waiter);
    }
    if (store.pttl(queue) < waitMillis) {
      store.pexpire(queue, waitMillis);
    }
  }

  /** MGET marker high-water. */
  public NodeMarks readMarks() {
    String marker = store.get(NodeKeys.MARKER);
    String highWater = store.get(NodeKeys.HIGH_WATER);
    return new NodeMarks(
        marker != null,
        marker != null ? Long.parseLong(marker) : 0,
        highWater != null ? Long.parseLong(highWater) : 0);
  }

  /** MGET marker. */
  public boolean hasMarker() {
    return store.get(NodeKeys.MARKER) != null;
  }

  /** name-empty-node.lua. */
  public String nameEmptyIncarnation(String freshName) {
    if (store.exists(NodeKeys.MARKER)) {
      return "";
    }
    store.setNx(NodeKeys.EMPTY, staleFirstSeen ? STALE_NAME : freshName);
    return Objects.requireNonNull(store.get(NodeKeys.EMPTY));
  }

  /** init-node.lua. */
  public InitReply initialize(long epoch, @Nullable String incarnation) {
    String current = store.get(NodeKeys.MARKER);
    if (current != null) {
      return new InitReply(InitReply.Outcome.ALREADY_INITIALIZED, Long.parseLong(current));
    }
    if (incarnation != null && !staleFirstSeen && !incarnation.equals(store.get(NodeKeys.EMPTY))) {
      return new InitReply(InitReply.Outcome.OTHER_INCARNATION, 0);
    }
    String value = Long.toString(epoch);
    store.set(NodeKeys.MARKER, value);
    store.set(NodeKeys.HIGH_WATER, value);
    store.del(NodeKeys.EMPTY);
    return new InitReply(InitReply.Outcome.SET, epoch);
  }

  private boolean setLock(String lockKey, String owner, long ttl) {
    if (!store.setNxPx(lockKey, owner, ttl)) {
      return false;
    }
    observer.created(lockKey, owner);
    return true;
  }

  private boolean deleteIfHeldBy(String lockKey, String owner) {
    if (owner.equals(store.get(lockKey))) {
      store.del(lockKey);
      observer.deleted(lockKey, owner);
      return true;
    }
    return false;
  }

  private void raiseHighWater(long token) {
    if (token > counter(store.get(NodeKeys.HIGH_WATER))) {
      store.set(NodeKeys.HIGH_WATER, Long.toString(token));
    }
  }

  private static long counter(@Nullable String value) {
    return value == null ? 0 : Long.parseLong(value);
  }
}
