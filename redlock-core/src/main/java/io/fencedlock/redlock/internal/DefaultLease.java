package io.fencedlock.redlock.internal;

import io.fencedlock.redlock.Lease;
import io.fencedlock.redlock.LockExpiredException;
import io.fencedlock.redlock.NodeStatus;
import io.lettuce.core.ScriptOutputType;
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

  /** What changes over a lease's life, swapped atomically. */
  private record State(long deadlineNanos, int extensions, boolean released) {}

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
    this.state = new AtomicReference<>(new State(deadlineNanos, 0, false));
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
    return s.released ? Duration.ZERO : Validity.remaining(s.deadlineNanos, ctx.ticker().read());
  }

  @Override
  public boolean isValid() {
    return !remainingValidity().isZero();
  }

  @Override
  public boolean extend(Duration ttl) {
    return Futures.await(extendAsync(ttl));
  }

  @Override
  public CompletionStage<Boolean> extendAsync(Duration ttl) {
    Validity.checkTtl("ttl", ttl, ctx.config().driftFactor(), ctx.config().maxLeaseTtl());
    State before = state.get();
    long start = ctx.ticker().read();
    if (before.released || start >= before.deadlineNanos) {
      return CompletableFuture.failedFuture(new LockExpiredException(
          "cannot extend the lease on '" + resource + "': " + (before.released ? "released" : "its validity ran out")));
    }
    if (before.extensions >= ctx.config().maxExtensions()) {
      return CompletableFuture.failedFuture(new IllegalStateException(
          "the lease on '" + resource + "' was already extended maxExtensions = " + before.extensions + " times"));
    }
    Nodes nodes = ctx.nodes();
    List<CompletableFuture<NodeReply>> calls = nodes.fanOut(nodes.all(), i -> pexpire(i, ttl));
    return QuorumRound.decide(nodes.all(), calls, nodes.quorum())
        .thenApply(round -> round.reached() && adopt(before, Validity.deadline(start, ttl, ctx.config().driftFactor())))
        .minimalCompletionStage();
  }

  /** Takes the new deadline unless the old one ran out meanwhile or the lease was released. */
  private boolean adopt(State before, long newDeadline) {
    if (ctx.ticker().read() >= before.deadlineNanos) {
      return false; // the quorum answered after our validity ended: we may have lost the lock
    }
    State current;
    do {
      current = state.get();
      if (current.released) {
        return false;
      }
    } while (!state.compareAndSet(current, new State(newDeadline, current.extensions + 1, false)));
    return true;
  }

  private CompletableFuture<NodeReply> pexpire(int node, Duration ttl) {
    return ctx.nodes().call(
        node,
        n -> n.<Long>script(LuaScript.EXTEND, ScriptOutputType.INTEGER, new String[] {lockKey}, owner, Long.toString(ttl.toMillis())),
        ok -> ok == 1L ? NodeReply.granted(node, 0) : NodeReply.of(node, NodeStatus.REFUSED, "lock no longer ours"));
  }

  @Override
  public boolean release() {
    return Futures.await(releasing());
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
    } while (!state.compareAndSet(current, new State(current.deadlineNanos, current.extensions, true)));
    boolean wasValid = ctx.ticker().read() < current.deadlineNanos;
    Optional<ReleaseSubscriptions.Successor> successor = mayHandOff(wasValid)
        ? ctx.releases().claimSuccessor(lockKey)
        : Optional.empty();
    CompletableFuture<?> released = successor.isPresent()
        ? handOff(successor.get())
        : ctx.nodes().releaseLease(lockKey, owner, acquireSettled, isFenced());
    return released.thenApply(ignored -> wasValid);
  }

  private CompletableFuture<?> handOff(ReleaseSubscriptions.Successor successor) {
    Handoff handoff = new Handoff(owner, handoffsInARow + 1, new CompletableFuture<>());
    try {
      successor.succeed(handoff);
    } catch (RuntimeException bug) {
      log.warn("handing the lock on '{}' to a waiter failed; releasing it instead", resource, bug);
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

  @Override
  public void close() {
    release();
  }

  @Override
  public String toString() {
    return "Lease[" + resource + (isFenced() ? ", token " + token : ", unfenced")
        + ", valid for " + remainingValidity().toMillis() + " ms]";
  }
}
