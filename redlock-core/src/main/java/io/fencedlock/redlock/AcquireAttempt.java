package io.fencedlock.redlock;

import io.fencedlock.redlock.spi.LockReply;
import io.fencedlock.redlock.spi.LockRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.BiConsumer;
import org.jspecify.annotations.Nullable;

/**
 * One attempt to acquire a lease: phase 1 (lock and read the fence counters), phase 2 (write the
 * token back where the lock is still ours), then the validity check. Any failure releases the lock
 * on every node before the attempt reports it. Thread-safe.
 *
 * <p>When this client has seen the resource's counter before ({@link TokenHints}), phase 1 also
 * proposes the next token, and each node writes it if it is above the node's counter. If a quorum
 * of the granting nodes wrote it, that token is the lease's and phase 2 is skipped: the same write
 * phase 2 would make, made in the same critical section as the read, so one round trip instead of
 * two (docs/analysis.md, section 3).
 *
 * <p>An attempt started by a {@link Handoff} deletes the predecessor's key in its lock step on each
 * node: acquire.lua with one more argument when fenced, handoff.lua instead of {@code SET NX PX}
 * when not.
 *
 * <p>A contended attempt (a waiter's retry on a release announcement, see {@link WaitingAcquire})
 * asks the key's {@link LeadNode} first and the other nodes only once it granted. Waiters of
 * several processes woken by one release then meet on that node, and the one it grants is the only
 * one to ask the others: the rest are refused there, after one script each, and cannot split the
 * nodes. Asking everywhere at once, the racers each won some nodes, none a quorum, and all cleaned
 * up and backed off (docs/analysis.md, section 10). The price is a round trip more for the winner.
 * A lead node that does not answer (timed out, failed, uninitialized) does not stop the attempt:
 * the other nodes are asked then.
 */
final class AcquireAttempt {

  /** The result of one attempt. */
  sealed interface Result permits Acquired, Failed {}

  record Acquired(DefaultLease lease) implements Result {}

  /**
   * @param splitVote whether the lock step lost to rivals that split the nodes with it, so the lock
   *     is likely free already ({@link SplitVote})
   * @param startedAt when the attempt started, on the configured ticker
   * @param leadHolder the owner the lead node's refusal named, when a contended attempt asked it
   *     first and stopped there; null otherwise
   */
  record Failed(
      String reason,
      List<NodeReply> replies,
      boolean splitVote,
      long startedAt,
      @Nullable String leadHolder)
      implements Result {}

  /** Tokens must stay exact in Lua, whose numbers are doubles. */
  static final long MAX_TOKEN = (1L << 53) - 1;

  private final LockContext ctx;
  private final String resource;
  private final Duration ttl;
  private final String lockKey;
  private final String fenceKey;
  private final String owner;
  private final long start;

  /** The local handoff that started this attempt, or null for an attempt of its own. */
  private final @Nullable Handoff handoff;

  /**
   * The owner whose released lease this attempt follows, whose key its lock step deletes first on
   * each node that still holds it (acquire.lua's ARGV[5], handoff.lua unfenced): the predecessor of
   * a local handoff, or the owner whose announced release started this attempt ({@link
   * ReleaseWaiters}), whose deletes may not have reached every node yet (a waiter acts on the
   * quorum-th copy, or on the lead's naming, while the other deletes are on their way), or for a
   * fenced waiter's other attempts the last owner announced on the lock (a release the lead passed
   * to a named client leaves its other deletes to that client's step). Null for none.
   */
  private final @Nullable String afterRelease;

  /** Whether phase 1 runs a script (whose refusals prove that nothing was locked). */
  private final boolean scripted;

  /** The node asked first, alone, or -1 when phase 1 asks every node at once. */
  private final int lead;

  /**
   * The waiting acquire this attempt belongs to, or null: its id goes to the lock's waiter queue on
   * {@link #queueNode} ({@link LockRequest#waiter}), never to the other nodes.
   */
  private final @Nullable WaiterTicket waiter;

  /**
   * The node that keeps the lock's waiter queue ({@link LeadNode#home}), or -1 without a waiter.
   */
  private final int queueNode;

  /**
   * The token phase 1 proposes, or 0 for none. A contended attempt may raise it once the lead node
   * granted, before it asks the other nodes (see {@link #leadFirst}).
   */
  private volatile long predicted;

  /** Per node, 1 once its phase-1 reply said it wrote {@link #predicted}. */
  private final AtomicIntegerArray wrotePrediction;

  /** Per node, the owner id its phase-1 refusal named (scripts name it; SET NX cannot). */
  private final AtomicReferenceArray<String> holders;

  /** Per node, completes once its phase-1 request has been answered or has timed out. */
  private List<CompletableFuture<NodeReply>> phase1Settled = List.of();

  /** Per node, 1 once this attempt's lock step went out to it. */
  private final AtomicIntegerArray lockStepSent;

  private AcquireAttempt(
      LockContext ctx,
      String resource,
      Duration ttl,
      @Nullable Handoff handoff,
      boolean contended,
      @Nullable WaiterTicket waiter,
      @Nullable String afterRelease) {
    this.ctx = ctx;
    this.handoff = handoff;
    this.afterRelease = handoff != null ? handoff.predecessorOwner() : afterRelease;
    this.waiter = ctx.config().fencing() ? waiter : null;
    // With a released owner to delete first, even an unfenced step is a script (handoff.lua),
    // whose refusal, like acquire.lua's, proves another owner holds the key.
    this.scripted = ctx.config().fencing() || this.afterRelease != null;
    this.resource = resource;
    this.ttl = ttl;
    this.lockKey = ctx.keys().lockKey(resource);
    this.queueNode = this.waiter == null ? -1 : ctx.nodes().leadNode().home(lockKey);
    // A handoff's lock step must reach every node at once: it carries the predecessor's delete.
    this.lead = contended && handoff == null ? ctx.nodes().leadNode().pick(lockKey) : -1;
    this.fenceKey = ctx.config().fencing() ? ctx.keys().fenceKey(resource) : ""; // unused unfenced
    this.owner = ctx.env().ids().get();
    this.lockStepSent = new AtomicIntegerArray(ctx.nodes().size());
    this.start = ctx.ticker().read();
    long guess =
        ctx.config().fencing() && ctx.config().tokenPrediction()
            ? ctx.hints().predict(resource)
            : 0;
    this.predicted = guess <= MAX_TOKEN ? guess : 0;
    this.wrotePrediction = new AtomicIntegerArray(ctx.nodes().size());
    this.holders = new AtomicReferenceArray<>(ctx.nodes().size());
  }

  /**
   * Runs one attempt, as the successor in {@code handoff} if not null, asking the lead node first
   * if {@code contended} (and not a handoff), and passes its result to {@code handler} (the failure
   * is a bug: attempts report failures as {@link Failed}). {@link
   * io.fencedlock.redlock.Redlock#close} waits until the handler has run, so whatever the handler
   * starts before it returns (the release of a lease nobody wants any more) is waited for too. A
   * handoff's {@link Handoff#predecessorReleased} completes after the handler, so the new holder's
   * thread is woken before the predecessor's.
   */
  static void run(
      LockContext ctx,
      String resource,
      Duration ttl,
      @Nullable Handoff handoff,
      boolean contended,
      @Nullable WaiterTicket waiter,
      @Nullable String afterRelease,
      BiConsumer<? super Result, ? super Throwable> handler) {
    CompletableFuture<Void> handled = new CompletableFuture<>();
    ctx.nodes().awaitOnClose(handled); // before sending, so a close() from now on waits for it
    CompletableFuture<Result> attempt;
    try {
      attempt =
          new AcquireAttempt(ctx, resource, ttl, handoff, contended, waiter, afterRelease)
              .phase1(true);
    } catch (RuntimeException | Error bug) {
      attempt =
          CompletableFuture.failedFuture(bug); // never expected; nothing may wait for it forever
    }
    attempt.whenComplete(
        (result, bug) -> {
          try {
            ctx.nodes().runFinishing(handled, () -> handler.accept(result, bug));
          } finally {
            handled.complete(null);
            if (handoff != null) {
              handoff.predecessorReleased().complete(null);
            }
          }
        });
  }

  private CompletableFuture<Result> phase1(boolean mayInitialize) {
    Nodes nodes = ctx.nodes();
    boolean fenced = ctx.config().fencing();
    LockRequest request =
        new LockRequest(
            lockKey, fenced ? fenceKey : null, owner, ttl.toMillis(), predicted, afterRelease);
    List<CompletableFuture<NodeReply>> calls =
        lead >= 0 && mayInitialize
            ? leadFirst(request)
            : nodes.fanOut(nodes.all(), i -> lockStep(i, forNode(i, request)));
    phase1Settled = calls;
    if (ctx.metrics().enabled()) {
      calls.forEach(
          call ->
              call.thenAccept(
                  reply -> {
                    if (!reply.wasNotAsked()) {
                      ctx.metrics().nodeReply(reply.status());
                    }
                  }));
    }
    return QuorumRound.decide(nodes.all(), calls, nodes.quorum())
        .thenCompose(
            round -> {
              if (fenced) {
                learnCounters(round.replies());
              }
              noteRivals(round.replies());
              if (!round.reached()) {
                return failLockStep(round.replies())
                    .thenCompose(
                        failed ->
                            mayInitialize && fenced ? retryIfNew(calls, failed) : done(failed));
              }
              if (!fenced) {
                return finish(-1, round.replies());
              }
              return predictionWritten(round) ? finish(predicted, round.replies()) : phase2(round);
            });
  }

  /**
   * Asks {@link #lead} alone, and the other nodes once it has answered: none if it refused (another
   * owner holds the key there, so this attempt has lost the race for it), all of them otherwise. A
   * lead that did not grant or refuse is passed over by the next contended attempts for a while.
   */
  private List<CompletableFuture<NodeReply>> leadFirst(LockRequest request) {
    CompletableFuture<NodeReply> first = lockStep(lead, forNode(lead, request));
    // What the other nodes are asked, known once the lead answered; null for nothing.
    CompletableFuture<@Nullable LockRequest> rest =
        first.thenApply(reply -> afterLead(reply, request));
    CompletableFuture<NodeReply> leadSettled =
        rest.thenCompose(next -> writeOnLeadIfRepredicted(first.join(), next, request));
    return ctx.nodes()
        .fanOut(
            ctx.nodes().all(),
            node ->
                node == lead
                    ? leadSettled
                    : rest.thenCompose(
                        next ->
                            next == null
                                // After the lead's refusal is in (rest's dependents run in no
                                // guaranteed order); the round may still record these before the
                                // lead's reply, see withNotAsked.
                                ? leadSettled.thenApply(refused -> NodeReply.notAsked(node))
                                : lockStep(node, forNode(node, next))));
  }

  /** {@code request} as {@code node} gets it: with this attempt's waiter on the queue's node. */
  private LockRequest forNode(int node, LockRequest request) {
    WaiterTicket ticket = waiter;
    return node == queueNode && ticket != null ? ticket.on(request) : request;
  }

  /**
   * The request for the other nodes after the lead's reply: none if it refused. When the lead
   * granted without writing the predicted token (none, or too low: this client had not seen the
   * last holder's token, which a waiter whose rival wrote it in phase 2 cannot have), the lead's
   * counter, read under our lock, is the freshest there is: the others are asked with one above it,
   * and the lead gets it written beside them ({@link #writeOnLeadIfRepredicted}). So a waiter's
   * attempt needs no phase 2 whatever it knew. The token is still above the counter of every
   * granting node (each writes it only above its own) and written on each of them, as phase 2 would
   * make it.
   */
  private @Nullable LockRequest afterLead(NodeReply reply, LockRequest request) {
    if (reply.status() == NodeStatus.REFUSED) {
      return null;
    }
    if (!reply.isGranted()) {
      ctx.nodes().leadNode().failed(lead);
      return request;
    }
    if (!ctx.config().fencing()
        || !ctx.config().tokenPrediction()
        || wrotePrediction.get(lead) == 1
        || reply.value() >= MAX_TOKEN) {
      return request;
    }
    predicted = reply.value() + 1;
    return new LockRequest(
        request.lockKey(),
        request.fenceKey(),
        request.owner(),
        request.ttlMillis(),
        predicted,
        request.predecessorOwner());
  }

  /**
   * The lead's settled phase-1 reply: at once, or, if {@link #afterLead} raised the prediction,
   * once that token was written there (fence.lua, sent beside the other nodes' lock steps). A write
   * that fails leaves the lead without the token, and the attempt goes to phase 2.
   */
  private CompletableFuture<NodeReply> writeOnLeadIfRepredicted(
      NodeReply leadReply, @Nullable LockRequest next, LockRequest original) {
    if (next == null || next == original) {
      return CompletableFuture.completedFuture(leadReply);
    }
    return writeBack(lead, next.predictedToken())
        .thenApply(
            written -> {
              if (written.isGranted()) {
                wrotePrediction.set(lead, 1);
              }
              return leadReply;
            });
  }

  /** Remembers a refusal for another owner, for {@link WaitingAcquire}'s next first attempt. */
  private void noteRivals(List<NodeReply> replies) {
    for (NodeReply reply : replies) {
      if (reply.status() == NodeStatus.REFUSED) {
        ctx.hints().metRival(resource, ctx.ticker().read());
        return;
      }
    }
  }

  /** A brand-new deployment answers UNINITIALIZED everywhere: initialize it and try once more. */
  private CompletableFuture<Result> retryIfNew(
      List<CompletableFuture<NodeReply>> calls, Result failed) {
    return ctx.membership().retryIfAllNew(calls, () -> phase1(false), failed);
  }

  /** Whether every granting node of the (quorum-sized) grant set wrote the predicted token. */
  // Loops rather than streams in these two: they run on every fenced acquire.
  private boolean predictionWritten(QuorumRound.Result round) {
    if (predicted <= 0) {
      return false;
    }
    int written = 0;
    for (NodeReply reply : round.replies()) {
      if (reply.isGranted()) {
        if (wrotePrediction.get(reply.node()) != 1) {
          return false;
        }
        written++;
      }
    }
    return written >= ctx.nodes().quorum();
  }

  private void learnCounters(List<NodeReply> replies) {
    if (replies.isEmpty()) {
      return;
    }
    long max = Long.MIN_VALUE;
    for (NodeReply reply : replies) {
      max = Math.max(max, reply.value());
    }
    ctx.hints().observe(resource, max);
  }

  private CompletableFuture<Result> phase2(QuorumRound.Result round1) {
    List<NodeReply> granted = round1.granted();
    long token = 1 + granted.stream().mapToLong(NodeReply::value).max().orElseThrow();
    if (token > MAX_TOKEN) {
      return fail("fence counter reached 2^53; tokens can no longer be issued", round1.replies());
    }
    List<Integer> targets = granted.stream().map(NodeReply::node).toList();
    List<CompletableFuture<NodeReply>> calls =
        ctx.nodes().fanOut(targets, i -> writeBack(i, token));
    return QuorumRound.decide(targets, calls, ctx.nodes().quorum())
        .thenCompose(
            round2 -> {
              List<NodeReply> replies = merge(round1.replies(), round2.replies());
              return round2.reached()
                  ? finish(token, replies)
                  : fail("no quorum confirmed the fencing token", replies);
            });
  }

  private CompletableFuture<Result> finish(long token, List<NodeReply> replies) {
    long deadline = Validity.deadline(start, ttl, ctx.config().driftFactor());
    if (ctx.ticker().read() - deadline >= 0) {
      return fail("acquiring took longer than the lease's validity", replies);
    }
    if (token > 0) {
      ctx.hints().observe(resource, token);
    }
    return done(
        new Acquired(
            new DefaultLease(
                ctx,
                resource,
                ttl,
                owner,
                token,
                deadline,
                phase1Settled,
                this::sent,
                handoff == null ? 0 : handoff.inARow())));
  }

  /**
   * Releases everywhere; each node's release waits until its phase-1 request has settled, so that
   * no release reaches a node ahead of the SET it must undo. Settling takes at most one node
   * timeout.
   */
  private CompletableFuture<Result> fail(String reason, List<NodeReply> replies) {
    return undo().thenApply(undone -> new Failed(reason, replies, false, start, null));
  }

  /** The same for a lock step without a quorum, telling whether it lost to a split vote. */
  private CompletableFuture<Result> failLockStep(List<NodeReply> replies) {
    // After the undo every phase-1 request has settled, so the split is judged on all replies.
    return undo()
        .thenApply(
            undone ->
                new Failed(
                    "no quorum granted the lock",
                    withNotAsked(replies),
                    splitVote(),
                    start,
                    leadHolder(replies)));
  }

  /**
   * The round's replies with what a contended attempt's nodes had settled by the time it failed:
   * the round decided as soon as a quorum had become impossible, maybe before every placeholder was
   * in, and a bare NO_REPLY_YET would read as a slow node. The lead's own reply too: the
   * placeholders complete on the lead's settled reply, and may reach the round before it does (a
   * future's dependents run in no guaranteed order), so the round can decide on three placeholders
   * with the lead's refusal not yet recorded.
   */
  private List<NodeReply> withNotAsked(List<NodeReply> replies) {
    if (lead < 0) {
      return replies;
    }
    List<NodeReply> reported = new ArrayList<>(replies);
    reported.replaceAll(
        reply ->
            reply.status() == NodeStatus.NO_REPLY_YET
                ? phase1Settled.get(reply.node()).getNow(reply)
                : reply);
    return reported;
  }

  /** The owner the lead node's refusal named, if this attempt stopped at it. */
  private @Nullable String leadHolder(List<NodeReply> replies) {
    return lead >= 0 && replies.stream().anyMatch(NodeReply::wasNotAsked)
        ? holders.get(lead)
        : null;
  }

  private CompletableFuture<Void> undo() {
    // Each node's cleanup waits for its reply (not only for the request to go out, as a lease's
    // release does): a refusal proves there is nothing to clean up, and a failed attempt has no
    // next acquire in a hurry.
    return ctx.nodes()
        .undoEverywhere(lockKey, owner, phase1Settled, node -> false, scripted, handoff != null);
  }

  private boolean splitVote() {
    List<NodeReply> settled = new ArrayList<>();
    List<String> named = new ArrayList<>();
    for (int node = 0; node < phase1Settled.size(); node++) {
      settled.add(phase1Settled.get(node).getNow(NodeReply.pending(node)));
      named.add(holders.get(node));
    }
    return SplitVote.isSplit(settled, named, ctx.nodes().quorum());
  }

  private static CompletableFuture<Result> done(Result result) {
    return CompletableFuture.completedFuture(result);
  }

  private CompletableFuture<NodeReply> lockStep(int node, LockRequest request) {
    CompletableFuture<NodeReply> reply =
        ctx.nodes().call(node, d -> d.lock(node, request), r -> phase1Reply(node, r));
    lockStepSent.set(node, 1); // the driver has sent it (or failed it) by the time it returns
    return reply;
  }

  /**
   * Whether this attempt's lock step has gone out to {@code node} (see {@link
   * Nodes#afterEachSettled}).
   */
  private boolean sent(int node) {
    return lockStepSent.get(node) == 1;
  }

  /**
   * Classifies a lock-step reply; granted and refused replies carry the counter. A fenced reply
   * also tells the membership whether the node has its marker (here rather than in a stage of its
   * own per node: failed calls tell it nothing).
   */
  private NodeReply phase1Reply(int node, LockReply reply) {
    NodeReply classified = classifyLockStep(node, reply);
    if (ctx.config().fencing()) {
      ctx.membership().observe(classified);
    }
    return classified;
  }

  private NodeReply classifyLockStep(int node, LockReply reply) {
    if (reply instanceof LockReply.Granted granted) {
      if (granted.wroteToken()) {
        wrotePrediction.set(node, 1);
      }
      return NodeReply.granted(node, granted.counter());
    }
    if (reply instanceof LockReply.Refused refused) {
      if (refused.holder() != null) {
        holders.set(node, refused.holder());
      }
      return new NodeReply(
          node,
          NodeStatus.REFUSED,
          refused.counter(),
          refused.pttlMillis() < 0
              ? "held by another owner"
              : "held by another owner for " + refused.pttlMillis() + " ms",
          null);
    }
    return NodeReply.of(
        node, NodeStatus.UNINITIALIZED, "no initialization marker: restarted without its data");
  }

  private CompletableFuture<NodeReply> writeBack(int node, long token) {
    return ctx.nodes()
        .call(
            node,
            d -> d.writeToken(node, lockKey, fenceKey, owner, token),
            ok ->
                ok
                    ? NodeReply.granted(node, token)
                    : NodeReply.of(
                        node, NodeStatus.REFUSED, "lock expired before the token was written"));
  }

  /** Phase-1 replies with phase-2 replies laid over them where phase 2 did not succeed. */
  private static List<NodeReply> merge(List<NodeReply> phase1, List<NodeReply> phase2) {
    List<NodeReply> merged = new ArrayList<>(phase1);
    for (NodeReply second : phase2) {
      if (!second.isGranted()) {
        merged.replaceAll(first -> first.node() == second.node() ? second : first);
      }
    }
    return merged;
  }
}
