package io.fencedlock.redlock;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntPredicate;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A lease held by one {@link DefaultRedlock}. Thread-safe; see {@link Lease}. */
final class DefaultLease implements Lease {
  private static final Logger log = LoggerFactory.getLogger(DefaultLease.class);

  /**
   * What changes over a lease's life, swapped atomically.
   *
   * @param extensions extend calls made so far (each reserves its slot before it is sent)
   * @param lost set once an extend learned that a majority of nodes no longer holds the key: the
   *     lease is over for good, whatever other extends report afterwards
   */
  private record State(long deadlineNanos, int extensions, boolean released, boolean lost) {
    boolean over() {
      return released || lost;
    }
  }

  private final LockContext ctx;
  private final String resource;
  private final String lockKey;
  private final String owner;
  private final long token;
  private final AtomicReference<State> state;
  private final List<CompletableFuture<NodeReply>> acquireSettled;
  private final IntPredicate acquireSent;
  private final int handoffsInARow;
  private final Duration ttl;

  /**
   * Completes when the lease is lost (closing the client loses it if kept alive); cancelled when it
   * is released first.
   */
  private final CompletableFuture<LeaseLoss> lostSignal = new CompletableFuture<>();

  /** How {@link #lostSignal} ends when the lease ends without loss: it reads as cancelled. */
  private static final CancellationException ENDED_WITHOUT_LOSS =
      new CancellationException("the lease ended without loss (released)");

  private volatile @Nullable Renewer renewer;

  /** The key under which the client tracks this lease's renewal, while it runs. */
  private volatile long keptAliveKey;

  /**
   * @param ttl the TTL the lease was acquired with (a renewal's default)
   * @param token the fencing token, or a negative number for an unfenced lease
   * @param acquireSettled per node, completes when that node has answered the acquire or timed out;
   *     the node's release waits for it, unless {@code acquireSent}, so it cannot overtake a slow
   *     node's SET
   * @param acquireSent whether the acquire's lock step has gone out to a node (see {@code
   *     Nodes.afterEachSettled})
   * @param handoffsInARow how many local handoffs in a row led to this lease (0 if acquired by an
   *     attempt of its own)
   */
  DefaultLease(
      LockContext ctx,
      String resource,
      Duration ttl,
      String owner,
      long token,
      long deadlineNanos,
      List<CompletableFuture<NodeReply>> acquireSettled,
      IntPredicate acquireSent,
      int handoffsInARow) {
    this.ctx = ctx;
    this.ttl = ttl;
    this.resource = resource;
    this.lockKey = ctx.keys().lockKey(resource);
    this.owner = owner;
    this.token = token;
    this.state = new AtomicReference<>(new State(deadlineNanos, 0, false, false));
    this.acquireSettled = acquireSettled;
    this.acquireSent = acquireSent;
    this.handoffsInARow = handoffsInARow;
  }

  @Override
  public String resource() {
    return resource;
  }

  @Override
  public String ownerId() {
    return owner;
  }

  @Override
  public boolean isFenced() {
    return token >= 0;
  }

  @Override
  public long fencingToken() {
    if (!isFenced()) {
      throw new IllegalStateException("this lease has no fencing token: fencing is switched off");
    }
    return token;
  }

  @Override
  public Duration remainingValidity() {
    State s = state.get();
    return s.over() ? Duration.ZERO : Validity.remaining(s.deadlineNanos, ctx.ticker().read());
  }

  @Override
  public boolean isValid() {
    return !remainingValidity().isZero();
  }

  @Override
  public boolean extend(Duration ttl) {
    return Futures.await(extendAsync(ttl), ctx.callBoundNanos());
  }

  @Override
  public CompletionStage<Boolean> extendAsync(Duration ttl) {
    try {
      Validity.checkTtl("ttl", ttl, ctx.config().driftFactor(), ctx.config().maxLeaseTtl());
    } catch (IllegalArgumentException invalid) {
      return CompletableFuture.<Boolean>failedFuture(invalid).minimalCompletionStage();
    }
    return extending(ttl, true).thenApply(ExtendOutcome::confirmed).minimalCompletionStage();
  }

  /** What one extend found: whether a quorum confirmed in time, and each node's outcome. */
  record ExtendOutcome(boolean confirmed, List<NodeOutcome> outcomes) {}

  /** An extend by the lease's {@link Renewer}: it does not count towards maxExtensions. */
  CompletableFuture<ExtendOutcome> renewAsync(Duration ttl) {
    return extending(ttl, false);
  }

  private CompletableFuture<ExtendOutcome> extending(Duration ttl, boolean counted) {
    if (ctx.nodes().isClosed()) {
      return CompletableFuture.failedFuture(
          new IllegalStateException(
              "cannot extend the lease on "
                  + ResourceNames.quoted(resource)
                  + ": its Redlock is closed"));
    }
    long start = ctx.ticker().read();
    State before;
    do {
      before = state.get();
      if (before.over() || start - before.deadlineNanos >= 0) {
        return CompletableFuture.failedFuture(
            new LockExpiredException(
                "cannot extend the lease on "
                    + ResourceNames.quoted(resource)
                    + ": "
                    + (before.released
                        ? "released"
                        : before.lost ? "it was lost" : "its validity ran out")));
      }
      if (counted && before.extensions >= ctx.config().maxExtensions()) {
        return CompletableFuture.failedFuture(
            new IllegalStateException(
                "the lease on "
                    + ResourceNames.quoted(resource)
                    + " was already extended "
                    + before.extensions
                    + " times (the limit is RedlockConfig.Builder.maxExtensions; renewals by"
                    + " keepAlive or withLock do not count)"));
      }
    } while (!state.compareAndSet(
        before,
        new State(before.deadlineNanos, before.extensions + (counted ? 1 : 0), false, false)));
    Nodes nodes = ctx.nodes();
    List<CompletableFuture<NodeReply>> calls = nodes.fanOut(nodes.all(), i -> lengthen(i, ttl));
    long newDeadline = Validity.deadline(start, ttl, ctx.config().driftFactor());
    return QuorumRound.decide(nodes.all(), calls, nodes.quorum())
        .thenApply(
            round -> {
              boolean confirmed = round.reached() ? adopt(newDeadline) : noteFailure(round);
              ctx.metrics().extended(ctx.ticker().read() - start, confirmed);
              return new ExtendOutcome(confirmed, nodes.outcomes(round.replies()));
            });
  }

  /**
   * Takes a deadline a quorum confirmed, unless the lease is over or its current validity ran out
   * before the confirmation came (another owner may hold the lock by now). Deadlines only move
   * later: extend.lua never shortens a key, so an earlier confirmed deadline still holds.
   */
  private boolean adopt(long confirmedDeadline) {
    long now = ctx.ticker().read();
    State current;
    do {
      current = state.get();
      if (current.over() || now - current.deadlineNanos >= 0) {
        return false;
      }
      // The later of the two, compared by difference: ticker readings may wrap.
    } while (!state.compareAndSet(
        current,
        new State(
            confirmedDeadline - current.deadlineNanos > 0
                ? confirmedDeadline
                : current.deadlineNanos,
            current.extensions,
            false,
            false)));
    return true;
  }

  /**
   * After an extend without a quorum: if more nodes than a quorum can spare answered that the key
   * is not ours, fewer than a quorum still hold it (a key is never re-created), so the lease is
   * lost for good. Timeouts and errors prove nothing, and the old validity stands: no node's expiry
   * was shortened.
   */
  private boolean noteFailure(QuorumRound.Result round) {
    long refusals =
        round.replies().stream().filter(reply -> reply.status() == NodeStatus.REFUSED).count();
    if (refusals > ctx.nodes().size() - ctx.nodes().quorum()) {
      markLost(
          LeaseLoss.Reason.NO_LONGER_HELD,
          refusals
              + " of "
              + ctx.nodes().size()
              + " nodes answered that the lock is no longer this lease's",
          ctx.nodes().outcomes(round.replies()));
    }
    return false;
  }

  /** The monotonic reading at which the validity runs out (for the {@link Renewer}). */
  long deadlineNanos() {
    return state.get().deadlineNanos;
  }

  /**
   * Ends the lease as lost: {@link #isValid()} turns false for good, renewal stops, and {@link
   * #lost()} completes with the loss. Nothing if it was released or lost already.
   */
  void markLost(LeaseLoss.Reason reason, String detail, List<NodeOutcome> outcomes) {
    State current;
    do {
      current = state.get();
      if (current.over()) {
        return;
      }
    } while (!state.compareAndSet(
        current, new State(current.deadlineNanos, current.extensions, false, true)));
    LeaseLoss loss =
        new LeaseLoss(
            reason,
            detail,
            outcomes,
            Validity.remaining(current.deadlineNanos, ctx.ticker().read()));
    // The signal first: a release racing this must not cancel it (see stopRenewal), and nothing
    // below may keep it from firing.
    lostSignal.complete(loss);
    log.debug("lease on {} lost: {}", ResourceNames.quoted(resource), loss.detail());
    forgetRenewal();
    ctx.metrics().leaseLost(loss.reason());
  }

  /**
   * Its client closes while keeping it alive: it is lost, as nothing renews it any more (see {@link
   * KeptAlive#loseAll}).
   */
  void loseToClosing() {
    markLost(
        LeaseLoss.Reason.CLIENT_CLOSED,
        "its client was closed: renewal stopped, and the lease runs out with its validity",
        List.of());
  }

  /** Whether the lease was released or lost (an expired one is neither). */
  boolean isOver() {
    return state.get().over();
  }

  private void forgetRenewal() {
    Renewer r = renewer;
    if (r != null) {
      r.stop();
    }
    long key = keptAliveKey;
    if (key != 0) {
      ctx.keptAlive().remove(key);
    }
  }

  @Override
  public CompletionStage<LeaseLoss> lost() {
    return lostSignal.minimalCompletionStage();
  }

  @Override
  public void checkValid() {
    State s = state.get();
    if (s.over() || ctx.ticker().read() - s.deadlineNanos >= 0) {
      throw new LockExpiredException(
          "the lease on "
              + ResourceNames.quoted(resource)
              + " is no longer valid: "
              + (s.released
                  ? "released"
                  : s.lost ? "lost (" + lostSignal.getNow(null) + ")" : "its validity ran out"));
    }
  }

  @Override
  public synchronized Lease keepAlive(Renewal policy) {
    java.util.Objects.requireNonNull(policy, "policy");
    Duration renewTtl = Renewer.checkedTtl(ctx.config(), ttl, policy);
    if (renewer != null) {
      throw new IllegalStateException(
          "the lease on " + ResourceNames.quoted(resource) + " is already kept alive");
    }
    if (!isValid()) {
      throw new LockExpiredException(
          "cannot keep the lease on "
              + ResourceNames.quoted(resource)
              + " alive: it is no longer valid");
    }
    Renewer started = new Renewer(this, ctx, ttl, renewTtl, policy);
    keptAliveKey = ctx.keptAlive().add(this);
    renewer = started;
    if (ctx.isClosed()) { // closed while registering: closing may have missed it
      loseToClosing();
      throw new IllegalStateException(
          "cannot keep the lease on "
              + ResourceNames.quoted(resource)
              + " alive: its Redlock is closed");
    }
    started.start();
    return this;
  }

  private CompletableFuture<NodeReply> lengthen(int node, Duration ttl) {
    return ctx.nodes()
        .call(
            node,
            d -> d.lengthen(node, lockKey, owner, ttl.toMillis()),
            ours ->
                ours
                    ? NodeReply.granted(node, 0)
                    : NodeReply.of(node, NodeStatus.REFUSED, "lock no longer ours"));
  }

  @Override
  public boolean release() {
    return Futures.await(releasing(), ctx.callBoundNanos());
  }

  @Override
  public CompletionStage<Boolean> releaseAsync() {
    return releasing().minimalCompletionStage();
  }

  /** Starts the release once; the future completes like {@link #releaseAsync()}'s stage. */
  private CompletableFuture<Boolean> releasing() {
    State current;
    do {
      current = state.get();
      if (current.released) {
        return CompletableFuture.completedFuture(false);
      }
    } while (!state.compareAndSet(
        current, new State(current.deadlineNanos, current.extensions, true, current.lost)));
    stopRenewal();
    if (ctx.nodes().isClosed() || (current.lost && ctx.isClosed())) {
      // Nothing can be sent, or nothing may be: a lease lost to its client closing may still have
      // work running under it (a cancelled stage does not stop its producer), so its key keeps
      // others out until the validity its holder was told of runs out.
      return CompletableFuture.completedFuture(false);
    }
    boolean wasValid = !current.lost && ctx.ticker().read() - current.deadlineNanos < 0;
    CompletableFuture<Void> handoffDone = new CompletableFuture<>();
    Optional<ReleaseWaiters.Successor> successor =
        mayHandOff(wasValid)
            ? ctx.releases().claimSuccessor(lockKey, handoffDone)
            : Optional.empty();
    long started = ctx.ticker().read();
    CompletableFuture<?> released =
        successor.isPresent() ? handOff(successor.get(), handoffDone) : releaseEverywhere();
    return released.thenApply(
        ignored -> {
          ctx.metrics().released(ctx.ticker().read() - started);
          return wasValid;
        });
  }

  private CompletableFuture<?> handOff(
      ReleaseWaiters.Successor successor, CompletableFuture<Void> handoffDone) {
    Handoff handoff = new Handoff(owner, handoffsInARow + 1, handoffDone);
    ctx.metrics().handoff();
    try {
      successor.succeed(handoff);
    } catch (RuntimeException bug) {
      log.warn(
          "handing the lock on {} to a waiter failed; releasing it instead",
          ResourceNames.quoted(resource),
          bug);
      handoffDone.complete(null);
      return releaseEverywhere();
    }
    return handoff.predecessorReleased();
  }

  /**
   * The release on the nodes, announced; with the token, if fenced, for the lead node's naming. On
   * a lock this client met a rival on lately, the lead is asked first: when it names a waiter, that
   * waiter's step deletes this lease's key on the other nodes (see {@link Nodes#releaseLease}).
   */
  private CompletableFuture<?> releaseEverywhere() {
    boolean contended =
        ctx.hints()
            .metRivalWithin(resource, ctx.ticker().read(), WaitingAcquire.RIVAL_MEMORY_NANOS);
    return ctx.nodes()
        .releaseLease(
            lockKey,
            owner,
            acquireSettled,
            acquireSent,
            isFenced(),
            isFenced() ? token : 0,
            contended ? ctx.env().scheduler() : null);
  }

  /**
   * Whether this release may pass the lock to a waiter of this client (see {@link
   * io.fencedlock.redlock.RedlockConfig.Builder#maxLocalHandoffs}): within the cap; while the lease
   * is valid (after that another owner may hold the lock, and a waiter handed nothing would lose
   * its place for nothing); and once every node has answered this lease's acquire or timed out,
   * since the successor's script deletes our key and, unlike a release, is not held back until a
   * slow node's SET has settled.
   */
  private boolean mayHandOff(boolean valid) {
    if (!valid || handoffsInARow >= ctx.config().maxLocalHandoffs()) {
      return false;
    }
    for (CompletableFuture<NodeReply> settled : acquireSettled) {
      if (!settled.isDone()) {
        return false;
      }
    }
    return true;
  }

  /**
   * Stops renewal for good, and tells {@link #lost()}'s dependents the lease ended without loss.
   */
  private void stopRenewal() {
    forgetRenewal();
    if (!state.get().lost) { // a loss already declared keeps its signal, even if released now
      // As cancel(false) would, without a new exception and its stack trace per release (about
      // a tenth of the bytes an uncontended acquire + release allocated).
      lostSignal.completeExceptionally(ENDED_WITHOUT_LOSS);
    }
  }

  /**
   * Releases like {@link #release()}; an interrupt ends the wait (the flag is kept), never throws.
   */
  @Override
  public void close() {
    try {
      release();
    } catch (RedlockException interrupted) {
      log.debug(
          "closing the lease on {} stopped waiting for its release",
          ResourceNames.quoted(resource),
          interrupted);
    }
  }

  @Override
  public String toString() {
    return "Lease["
        + ResourceNames.quoted(resource)
        + (isFenced() ? ", token " + token : ", unfenced")
        + ", valid for "
        + remainingValidity().toMillis()
        + " ms]";
  }
}
