package io.fencedlock.redlock;

import io.fencedlock.redlock.spi.MultiLockReply;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * One attempt to lock several resources at once: phase 1 takes every lock and reads every counter
 * on each node, all or nothing (acquire-all.lua); each resource's token is one above the largest
 * counter of the granting quorum; phase 2 writes the tokens back where every lock is still ours
 * (fence-all.lua); then the validity check. Any failure releases everywhere, each node once its
 * lock step settled. No token prediction and no local handoff: a lease of several resources always
 * takes two round trips. Thread-safe.
 */
final class MultiLockAttempt {
  private final LockContext ctx;
  private final List<String> resources;
  private final List<String> lockKeys;
  private final List<String> fenceKeys;
  private final Duration ttl;
  private final String owner;
  private final long start;

  /** Per node, the counters its granted lock step read. */
  private final AtomicReferenceArray<List<Long>> counters;

  private List<CompletableFuture<NodeReply>> settled = List.of();

  /** The replies the attempt decided on (phase 1's, or phase 2's laid over them). */
  private volatile List<NodeReply> replies = List.of();

  MultiLockAttempt(LockContext ctx, List<String> resources, Duration ttl) {
    this.ctx = ctx;
    this.resources = resources;
    this.lockKeys = resources.stream().map(ctx.keys()::lockKey).toList();
    this.fenceKeys = resources.stream().map(ctx.keys()::fenceKey).toList();
    this.ttl = ttl;
    this.owner = ctx.env().ids().get();
    this.start = ctx.ticker().read();
    this.counters = new AtomicReferenceArray<>(ctx.nodes().size());
  }

  /**
   * Runs the attempt: the lease, or null after a failure that cleaned up; the future never fails.
   * On a brand-new deployment (every node UNINITIALIZED) it initializes the nodes and tries once
   * more, as a single-resource attempt does.
   */
  CompletableFuture<DefaultMultiLease> run() {
    return run(true);
  }

  private CompletableFuture<DefaultMultiLease> run(boolean mayInitialize) {
    Nodes nodes = ctx.nodes();
    List<CompletableFuture<NodeReply>> calls =
        nodes.fanOut(
            nodes.all(),
            node ->
                nodes.call(
                    node,
                    d -> d.lockAll(node, lockKeys, fenceKeys, owner, ttl.toMillis()),
                    reply -> lockReply(node, reply)));
    settled = calls;
    calls.forEach(call -> call.thenAccept(ctx.membership()::observe));
    return QuorumRound.decide(nodes.all(), calls, nodes.quorum())
        .thenCompose(
            round -> {
              replies = round.replies();
              if (!round.reached()) {
                return mayInitialize
                    ? undo()
                        .thenCompose(
                            failed ->
                                ctx.membership().retryIfAllNew(calls, () -> run(false), failed))
                    : undo();
              }
              List<Integer> granted = round.granted().stream().map(NodeReply::node).toList();
              List<Long> tokens = tokensOf(granted);
              if (tokens.stream().anyMatch(token -> token > AcquireAttempt.MAX_TOKEN)) {
                return undo();
              }
              List<CompletableFuture<NodeReply>> writes =
                  nodes.fanOut(
                      granted,
                      node ->
                          nodes.call(
                              node,
                              d -> d.writeTokens(node, lockKeys, fenceKeys, owner, tokens),
                              ok ->
                                  ok
                                      ? NodeReply.granted(node, 0)
                                      : NodeReply.of(
                                          node, NodeStatus.REFUSED, "a lock expired first")));
              return QuorumRound.decide(granted, writes, nodes.quorum())
                  .thenCompose(
                      written -> {
                        List<NodeReply> merged = new ArrayList<>(replies);
                        written.replies().stream()
                            .filter(reply -> !reply.isGranted())
                            .forEach(
                                second ->
                                    merged.replaceAll(
                                        first -> first.node() == second.node() ? second : first));
                        replies = merged;
                        return written.reached() ? finish(tokens) : undo();
                      });
            });
  }

  /** The replies of a failed attempt, for its exception. */
  List<NodeReply> replies() {
    return replies;
  }

  private NodeReply lockReply(int node, MultiLockReply reply) {
    if (reply instanceof MultiLockReply.Granted granted) {
      counters.set(node, granted.counters());
      return NodeReply.granted(node, 0);
    }
    if (reply instanceof MultiLockReply.Refused refused) {
      return NodeReply.of(
          node,
          NodeStatus.REFUSED,
          ResourceNames.quoted(resources.get(refused.index()))
              + " held by another owner for "
              + refused.pttlMillis()
              + " ms");
    }
    return NodeReply.of(
        node, NodeStatus.UNINITIALIZED, "no initialization marker: restarted without its data");
  }

  /** Per resource, one above the largest counter a granting node read. */
  private List<Long> tokensOf(List<Integer> granted) {
    List<Long> tokens = new ArrayList<>();
    for (int r = 0; r < resources.size(); r++) {
      long highest = 0;
      for (int node : granted) {
        highest = Math.max(highest, counters.get(node).get(r));
      }
      tokens.add(highest + 1);
    }
    return tokens;
  }

  private CompletableFuture<DefaultMultiLease> finish(List<Long> tokens) {
    long deadline = Validity.deadline(start, ttl, ctx.config().driftFactor());
    if (ctx.ticker().read() - deadline >= 0) {
      return undo();
    }
    return CompletableFuture.completedFuture(
        new DefaultMultiLease(ctx, resources, lockKeys, owner, tokens, deadline, settled));
  }

  /**
   * Releases everywhere (a script's refusal proves nothing was written there), then reports
   * failure.
   */
  private CompletableFuture<DefaultMultiLease> undo() {
    List<CompletableFuture<NodeReply>> releases =
        ctx.nodes()
            .afterEachSettled(
                settled,
                node -> false, // waits for each node's reply, as before
                true,
                node ->
                    ctx.nodes()
                        .call(
                            node,
                            d -> d.releaseAll(node, lockKeys, owner, null),
                            deleted -> NodeReply.granted(node, deleted)));
    return CompletableFuture.allOf(releases.toArray(CompletableFuture[]::new))
        .thenApply(done -> null);
  }
}
