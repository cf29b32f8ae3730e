package io.fencedlock.redlock;

import io.fencedlock.redlock.spi.Scheduler;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiFunction;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;

/**
 * One {@code acquire} with retries until its deadline. The first attempt goes out at once. After
 * the first failure it subscribes to the lock's release notifications and tries again as soon as
 * the subscription is confirmed (a release may have happened meanwhile); after every later failure
 * it retries on whichever comes first, a release notification or the retry delay plus jitter. So a
 * waiter is granted within a few round trips of a release instead of after half a retry delay on
 * average, and a lost notification costs one retry delay. Between attempts, a lease of the same
 * client that is released may instead claim it and make its next attempt carry the release ({@link
 * Handoff}). An attempt that lost to a split vote ({@link SplitVote}) retries after a short random
 * backoff instead of the retry delay.
 *
 * <p>Once subscribed, a fenced acquire's attempts queue its client on the lock's lead node when
 * refused there ({@link WaiterTicket}), and a release the lead node announces names the first
 * client in that queue ({@link ReleaseWaiters}). The retry that naming starts asks every node at
 * once, since no other client was woken, and predicts the token after the released one. Every retry
 * a release announcement starts deletes the released owner's key first wherever that delete has not
 * arrived yet (as a local handoff's attempt does): a waiter acts on the lead's naming or on the
 * quorum-th node's announcement, and a node may take its step before the release's (an unfenced
 * refusal names no holder, so without it the waiter could not tell that case from a rival's win and
 * would sleep its retry delay). A fenced waiter's other attempts after its first delete the last
 * owner announced on the lock too: a contended release the lead passed to this client leaves its
 * key on the other nodes to this client's step ({@link Nodes#releaseLease}), and the naming may not
 * be what starts that step. A retry started by any other release announcement (or the confirmed
 * subscription) after a failure that was not a split vote is contended: it asks the lock's {@link
 * LeadNode} first ({@link AcquireAttempt}), so that the waiters of other processes woken by the
 * same release do not split the nodes with it. A retry started by the retry timer, or after a split
 * vote, asks every node at once, as a first attempt does: a stale key on the lead node (an undo
 * that never arrived) must not keep a waiter from a quorum of free nodes, and a split leaves keys
 * of rivals on the lead node for a moment. When the lead node refused for the very owner whose
 * release was announced (its delete had not arrived there yet), the waiter asks it again at once,
 * at most {@value #MAX_LEAD_RETRIES} times in a row. When it refused, after an announced release,
 * for the same other owner it had refused for before that release, that owner's key outlived a
 * release of the lock: it is stale (a failed attempt's undo that never arrived, a crashed client),
 * not the new holder's, so the waiter asks every node at once, without waiting, instead of sleeping
 * the retry delay beside a free quorum; once per announcement, so a stale key never makes it spin.
 * A waiter refused for another process's waiter that just won the lead named someone else before,
 * and waits as before. The first attempt is contended too when this client met a rival on the lock
 * less than {@link #RIVAL_MEMORY_NANOS} ago. Thread-safe: attempts run one at a time, started from
 * timer, I/O or caller threads; each wait between two attempts is ended exactly once, by whichever
 * of timer, notification or claim gets there first.
 */
final class WaitingAcquire implements ReleaseWaiters.Successor {
  private static final int MAX_SPLIT_DOUBLINGS = 8;
  private static final int MAX_LEAD_RETRIES = 2;

  /**
   * How long after meeting a rival on a lock this client's next acquire of it starts contended. A
   * client that released a contended lock and asks for it again at once would otherwise always beat
   * the waiters it just woke: its first attempt asks every node at once, and takes the other nodes
   * while a waiter is still asking the lead (seen as one client holding a lock for dozens of leases
   * in a row in the chaos harness's client-pause experiment).
   */
  static final long RIVAL_MEMORY_NANOS = java.util.concurrent.TimeUnit.SECONDS.toNanos(1);

  private final LockContext ctx;
  private final ReleaseWaiters waiters;
  private final Scheduler timer;
  private final BooleanSupplier closed;

  /** Builds the exception for a given attempt count and last failed attempt. */
  private final BiFunction<Integer, AcquireAttempt.Failed, RuntimeException> failure;

  private final String resource;
  private final Duration ttl;
  private final long giveUpAt;

  private final CompletableFuture<Lease> result = new CompletableFuture<>();
  private volatile ReleaseWaiters.@Nullable Waiter waiter;
  private volatile CompletableFuture<ReleaseWaiters.Wake> armed = new CompletableFuture<>();

  /** The current wait between attempts: set once it has ended; null before the first wait. */
  private volatile @Nullable AtomicBoolean waitEnded;

  private volatile Scheduler.@Nullable Task retryTimer;
  private volatile int attempts;

  /** Whether the next attempt is contended (asks the lead node first); set by what starts it. */
  private volatile boolean contended;

  /** Immediate retries in a row after the lead node refused for an announced release. */
  private volatile int leadRetries;

  /** The owner the lead node's last refusal of a contended attempt named; null before one. */
  private volatile @Nullable String lastLeadHolder;

  /** Whether the attempt in flight was started by a release announcement. */
  private volatile boolean startedByRelease;

  /** The owner whose announced release starts the next attempt; else null. */
  private volatile @Nullable String afterRelease;

  /**
   * Split votes lost in a row; each doubles the backoff window, up to {@link #MAX_SPLIT_DOUBLINGS}.
   */
  private volatile int splitsInARow;

  /** The duration of the attempt that lost the first split of the current run of them. */
  private volatile long firstSplitAttemptNanos;

  WaitingAcquire(
      LockContext ctx,
      ReleaseWaiters subscriptions,
      Scheduler timer,
      BooleanSupplier closed,
      BiFunction<Integer, AcquireAttempt.Failed, RuntimeException> failure,
      String resource,
      Duration ttl,
      Duration maxWait) {
    this.ctx = ctx;
    this.waiters = subscriptions;
    this.timer = timer;
    this.closed = closed;
    this.failure = failure;
    this.resource = resource;
    this.ttl = ttl;
    long now = ctx.ticker().read();
    this.giveUpAt = now + maxWait.toNanos();
    this.contended = ctx.hints().metRivalWithin(resource, now, RIVAL_MEMORY_NANOS);
  }

  /**
   * Starts the first attempt; the future completes with the lease or the failure. Completed by
   * anyone else (a caller's cancel, a closing client), it ends the acquire, and a lease an attempt
   * still gains is released.
   */
  CompletableFuture<Lease> start() {
    attempt();
    return result;
  }

  @Override
  public boolean claim() {
    AtomicBoolean ended = waitEnded;
    if (ended == null || result.isDone() || !ended.compareAndSet(false, true)) {
      return false;
    }
    Scheduler.Task timer = retryTimer;
    if (timer != null) {
      timer.cancel(); // only tidiness: the timer would find its wait ended
    }
    return true;
  }

  @Override
  public void succeed(Handoff handoff) {
    // Runs even if the caller gave up since the claim: this attempt carries the predecessor's
    // release, and a lease it gains is released again below (handed on or announced).
    try {
      run(handoff);
    } catch (RuntimeException bug) {
      // Never expected (attempts report failures in their future), but this acquire must not
      // wait for an attempt that never ran; the releasing lease falls back to a release.
      result.completeExceptionally(bug);
      throw bug;
    }
  }

  private void attempt() {
    if (result.isDone()) {
      return; // cancelled by the caller, or completed
    }
    run(null);
  }

  private void run(@Nullable Handoff handoff) {
    attempts++;
    String after = afterRelease;
    afterRelease = null;
    ReleaseWaiters.Waiter w = waiter;
    WaiterTicket ticket = null;
    if (w != null) {
      armed = w.arm();
      // Queued only once registered, so that a naming announcement finds a waiter here (a lead
      // that does not have the subscriptions yet counts no listener and passes the client over).
      ticket = new WaiterTicket(waiters.clientId(), queuedMillis());
      if (after == null && handoff == null && ctx.config().fencing()) {
        // A release that named this client may have left its key on the other nodes to this
        // client's step (Nodes.releaseLease), and the naming may have lost the race with the retry
        // timer, or come while this attempt was starting: delete the last announced owner anyway.
        after = waiters.lastAnnouncedOwner(ctx.keys().lockKey(resource));
      }
    }
    AcquireAttempt.run(
        ctx,
        resource,
        ttl,
        handoff,
        contended,
        ticket,
        after, // a handoff's attempt follows its predecessor instead
        (outcome, bug) -> {
          if (bug != null) {
            result.completeExceptionally(bug);
          } else if (outcome instanceof AcquireAttempt.Acquired acquired) {
            if (w != null) {
              // Got the lock: its subscriptions may linger. Ended before the caller can see the
              // lease, so that the client waits for the lock again on the same subscriptions.
              w.end(true);
            }
            if (!result.complete(acquired.lease())) {
              acquired.lease().releaseAsync(); // the caller gave up meanwhile
            }
          } else {
            retryOrGiveUp((AcquireAttempt.Failed) outcome);
          }
        });
  }

  private void retryOrGiveUp(AcquireAttempt.Failed failed) {
    long delay;
    // What the next attempt is if a release announcement starts it, and if the timer does.
    boolean contendedOnRelease = !failed.splitVote();
    boolean contendedOnTimer = false;
    if (failed.splitVote()) {
      leadRetries = 0;
      delay = splitBackoffNanos(failed.startedAt());
    } else if (leadStillReleasing(failed) && leadRetries < MAX_LEAD_RETRIES) {
      leadRetries++;
      splitsInARow = 0;
      delay = 0;
      contendedOnTimer = true;
    } else if (staleOnLead(failed)) {
      leadRetries = 0;
      splitsInARow = 0;
      delay = 0; // and on the timer: every node at once
    } else {
      leadRetries = 0;
      splitsInARow = 0;
      delay = retryDelayNanos();
    }
    if (failed.leadHolder() != null) {
      lastLeadHolder = failed.leadHolder();
    }
    if (ctx.ticker().read() + delay - giveUpAt > 0
        || closed.getAsBoolean()) { // by difference: readings may wrap
      result.completeExceptionally(failure.apply(attempts, failed));
      return;
    }
    CompletableFuture<ReleaseWaiters.Wake> trigger;
    boolean announcement; // whether the trigger is a release, not the subscription's confirmation
    if (waiter == null) {
      ReleaseWaiters.Waiter w = waiters.register(ctx.keys().lockKey(resource), this);
      waiter = w;
      // Stops waiting when this acquire ends without the lock (a grant ended it already, see
      // run); at once if it was cancelled while registering.
      result.whenComplete((lease, e) -> w.close());
      if (result.isDone()) {
        return;
      }
      trigger = w.subscribed().thenApply(subscribed -> ReleaseWaiters.Wake.ANY);
      announcement = false;
    } else {
      trigger = armed;
      announcement = true;
    }
    AtomicBoolean fired = new AtomicBoolean();
    // Claimable before the timer exists: a timer due at once could otherwise run the next
    // attempt, and that attempt's wait be overwritten here by this (already ended) one.
    waitEnded = fired;
    Scheduler.Task scheduled;
    try {
      boolean onTimer = contendedOnTimer;
      scheduled = timer.schedule(() -> fire(fired, onTimer, false, null), delay);
      retryTimer = scheduled;
    } catch (RejectedExecutionException e) {
      // The Redlock was closed after the check above: give up like a closed Redlock does.
      RuntimeException closing = failure.apply(attempts, failed);
      closing.addSuppressed(e);
      result.completeExceptionally(closing);
      return;
    }
    // A failed subscription only means there will be no early wake-up; the timer still fires.
    trigger.thenAccept(
        wake -> {
          scheduled.cancel();
          if (wake.named()) {
            // Named by the lead node: no other client was woken, so ask every node at once,
            // past the token just released (a hint; a wrong one costs phase 2, never safety).
            ctx.hints().observe(resource, wake.token());
          }
          fire(fired, contendedOnRelease && !wake.named(), announcement, wake.releasedOwner());
        });
  }

  /**
   * How long the lead node keeps this client queued after a refusal: until this acquire gives up,
   * but no longer than its next attempt is due, and then some (twice the longest retry delay, plus
   * a node timeout), since every refused attempt queues it again. So a client that crashed, or
   * whose acquire was cancelled, leaves the queue soon even with a long wait.
   */
  private long queuedMillis() {
    long left = giveUpAt - ctx.ticker().read();
    long untilRequeued =
        2 * (ctx.config().retryDelay().toNanos() + ctx.config().retryJitter().toNanos())
            + ctx.config().nodeTimeout().toNanos();
    return Math.max(1, TimeUnit.NANOSECONDS.toMillis(Math.min(left, untilRequeued)));
  }

  private void fire(
      AtomicBoolean fired,
      boolean contendedAttempt,
      boolean byRelease,
      @Nullable String releasedOwner) {
    if (fired.compareAndSet(false, true)) {
      contended = contendedAttempt;
      startedByRelease = byRelease;
      afterRelease = releasedOwner;
      attempt();
    }
  }

  /**
   * Whether a contended attempt stopped at the lead node because that node still held the key of an
   * owner whose release has been announced: its delete is on the way, and asking again now finds
   * the node free, where waiting for the next announcement could take the retry delay.
   */
  private boolean leadStillReleasing(AcquireAttempt.Failed failed) {
    String holder = failed.leadHolder();
    return holder != null && waiters.announced(ctx.keys().lockKey(resource), holder);
  }

  /**
   * Whether a contended attempt that a release announcement started stopped at the lead node for an
   * owner that is not the released one but held the lead's key already before: a key that outlived
   * a release of the lock cannot be the holder's, so a quorum of the other nodes may well be free.
   * (If the announcement arrived while the earlier attempt was still in flight, the owner may be a
   * waiter that won the lead since; that costs one attempt of every node, once.)
   */
  private boolean staleOnLead(AcquireAttempt.Failed failed) {
    String holder = failed.leadHolder();
    return startedByRelease
        && holder != null
        && holder.equals(lastLeadHolder)
        && !waiters.announced(ctx.keys().lockKey(resource), holder);
  }

  private long retryDelayNanos() {
    long bound = ctx.config().retryJitter().toNanos();
    return ctx.config().retryDelay().toNanos()
        + (bound == 0 ? 0 : ctx.env().random().nextLong(bound));
  }

  /**
   * After a split vote the lock is free once the rivals have cleaned up, and each of them retries
   * too: at a random point of a window that starts at four times the duration of the attempt that
   * lost the first split (a few round trips) and doubles with every split lost in a row, up to
   * 2^{@value #MAX_SPLIT_DOUBLINGS} times that, so that one rival soon retries alone and takes
   * every node. Never longer than the retry delay plus its jitter.
   */
  private long splitBackoffNanos(long attemptStartedAt) {
    int splits = ++splitsInARow;
    if (splits == 1) {
      firstSplitAttemptNanos = Math.max(1, ctx.ticker().read() - attemptStartedAt);
    }
    long window =
        Math.min(
            ctx.config().retryDelay().toNanos() + ctx.config().retryJitter().toNanos(),
            firstSplitAttemptNanos << (Math.min(splits, MAX_SPLIT_DOUBLINGS) + 1));
    return window <= 0 ? 0 : ctx.env().random().nextLong(window);
  }
}
