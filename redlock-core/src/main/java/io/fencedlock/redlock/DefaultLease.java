package io.fencedlock.redlock;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicReference;

/** A lease held by one {@link DefaultRedlock}. Thread-safe; see {@link Lease}. */
final class DefaultLease implements Lease {
  private static final Logger log = LoggerFactory.getLogger(DefaultLease.class);

  /**
   * What changes over a lease's life, swapped atomically.
   *
   * @param extensions extend calls made so far (each reserves its slot before it is sent)
   * @param lost set once an extend learned that a majority of nodes no longer holds the key:
   *     the lease is over for good, whatever other extends report afterwards
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
  private final int handoffsInARow;

  /**
   * @param token the fencing token, or a negative number for an unfenced lease
   * @param acquireSettled per node, completes when that node has answered the acquire or timed
   *     out; the node's release waits for it so it cannot overtake a slow node's SET
   * @param handoffsInARow how many local handoffs in a row led to this lease (0 if acquired
   *     by an attempt of its own)
   */
  DefaultLease(LockContext ctx, String resource, String owner, long token, long deadlineNanos,
      List<CompletableFuture<NodeReply>> acquireSettled, int handoffsInARow) {
    this.ctx = ctx;
    this.resource = resource;
    this.lockKey = ctx.keys().lockKey(resource);
    this.owner = owner;
    this.token = token;
    this.state = new AtomicReference<>(new State(deadlineNanos, 0, false, false));
    this.acquireSettled = acquireSettled;
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
    Validity.checkTtl("ttl", ttl, ctx.config().driftFactor(), ctx.config().maxLeaseTtl());
    if (ctx.nodes().isClosed()) {
      return CompletableFuture.failedFuture(new IllegalStateException(
          "cannot extend the lease on '" + resource + "': its Redlock is closed"));
    }
    long start = ctx.ticker().read();
    State before;
    do {
      before = state.get();
      if (before.over() || start - before.deadlineNanos >= 0) {
        return CompletableFuture.failedFuture(new LockExpiredException("cannot extend the lease on '" + resource + "': "
            + (before.released ? "released" : before.lost ? "a majority of nodes no longer holds it" : "its validity ran out")));
      }
      if (before.extensions >= ctx.config().maxExtensions()) {
        return CompletableFuture.failedFuture(new IllegalStateException(
            "the lease on '" + resource + "' was already extended maxExtensions = " + before.extensions + " times"));
      }
    } while (!state.compareAndSet(before, new State(before.deadlineNanos, before.extensions + 1, false, false)));
    Nodes nodes = ctx.nodes();
    List<CompletableFuture<NodeReply>> calls = nodes.fanOut(nodes.all(), i -> lengthen(i, ttl));
    long newDeadline = Validity.deadline(start, ttl, ctx.config().driftFactor());
    return QuorumRound.decide(nodes.all(), calls, nodes.quorum())
        .thenApply(round -> round.reached() ? adopt(newDeadline) : noteFailure(round))
        .minimalCompletionStage();
  }

  /**
   * Takes a deadline a quorum confirmed, unless the lease is over or its current validity ran
   * out before the confirmation came (another owner may hold the lock by now). Deadlines only
   * move later: extend.lua never shortens a key, so an earlier confirmed deadline still holds.
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
    } while (!state.compareAndSet(current, new State(confirmedDeadline - current.deadlineNanos > 0
        ? confirmedDeadline : current.deadlineNanos, current.extensions, false, false)));
    return true;
  }

  /**
   * After an extend without a quorum: if more nodes than a quorum can spare answered that the
   * key is not ours, fewer than a quorum still hold it (a key is never re-created), so another
   * client may acquire at once and this lease is lost for good. Timeouts and errors prove
   * nothing, and the old validity stands: no node's expiry was shortened.
   */
  private boolean noteFailure(QuorumRound.Result round) {
    long refusals = round.replies().stream().filter(reply -> reply.status() == NodeStatus.REFUSED).count();
    if (refusals > ctx.nodes().size() - ctx.nodes().quorum()) {
      state.updateAndGet(s -> new State(s.deadlineNanos, s.extensions, s.released, true));
      log.debug("lease on '{}' lost: {} of {} nodes no longer hold it", resource, refusals, ctx.nodes().size());
    }
    return false;
  }

  private CompletableFuture<NodeReply> lengthen(int node, Duration ttl) {
    return ctx.nodes().call(
        node,
        d -> d.lengthen(node, lockKey, owner, ttl.toMillis()),
        ours -> ours ? NodeReply.granted(node, 0) : NodeReply.of(node, NodeStatus.REFUSED, "lock no longer ours"));
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
    } while (!state.compareAndSet(current, new State(current.deadlineNanos, current.extensions, true, current.lost)));
    if (ctx.nodes().isClosed()) {
      return CompletableFuture.completedFuture(false); // nothing can be sent: the key stays to its TTL
    }
    boolean wasValid = !current.lost && ctx.ticker().read() - current.deadlineNanos < 0;
    CompletableFuture<Void> handoffDone = new CompletableFuture<>();
    Optional<ReleaseWaiters.Successor> successor = mayHandOff(wasValid)
        ? ctx.releases().claimSuccessor(lockKey, handoffDone)
        : Optional.empty();
    CompletableFuture<?> released = successor.isPresent()
        ? handOff(successor.get(), handoffDone)
        : ctx.nodes().releaseLease(lockKey, owner, acquireSettled, isFenced());
    return released.thenApply(ignored -> wasValid);
  }

  private CompletableFuture<?> handOff(ReleaseWaiters.Successor successor, CompletableFuture<Void> handoffDone) {
    Handoff handoff = new Handoff(owner, handoffsInARow + 1, handoffDone);
    try {
      successor.succeed(handoff);
    } catch (RuntimeException bug) {
      log.warn("handing the lock on '{}' to a waiter failed; releasing it instead", resource, bug);
      handoffDone.complete(null);
      return ctx.nodes().releaseLease(lockKey, owner, acquireSettled, isFenced());
    }
    return handoff.predecessorReleased();
  }

  /**
   * Whether this release may pass the lock to a waiter of this client (see {@link
   * io.fencedlock.redlock.RedlockConfig.Builder#maxLocalHandoffs}): within the cap; while the
   * lease is valid (after that another owner may hold the lock, and a waiter handed nothing
   * would lose its place for nothing); and once every node has answered this lease's acquire
   * or timed out, since the successor's script deletes our key and, unlike a release, is not
   * held back until a slow node's SET has settled.
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

  /** Releases like {@link #release()}; an interrupt ends the wait (the flag is kept), never throws. */
  @Override
  public void close() {
    try {
      release();
    } catch (RedlockException interrupted) {
      log.debug("closing the lease on '{}' stopped waiting for its release", resource, interrupted);
    }
  }

  @Override
  public String toString() {
    return "Lease[" + resource + (isFenced() ? ", token " + token : ", unfenced")
        + ", valid for " + remainingValidity().toMillis() + " ms]";
  }
}
