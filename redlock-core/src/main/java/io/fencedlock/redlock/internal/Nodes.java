package io.fencedlock.redlock.internal;

import io.fencedlock.redlock.NodeOutcome;
import io.fencedlock.redlock.NodeStatus;
import io.fencedlock.redlock.RedlockConfig;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.Delay;
import io.lettuce.core.resource.DefaultClientResources;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.stream.IntStream;

/**
 * The configured Redis masters and the Lettuce resources they share: fan-out, the
 * release-everywhere step, and per-node diagnostics. Thread-safe.
 */
final class Nodes implements AutoCloseable {

  private final List<NodeClient> clients;
  private final ClientResources resources;
  private final Replies replies;
  private final int quorum;

  private Nodes(List<NodeClient> clients, ClientResources resources, Duration nodeTimeout, int quorum) {
    this.clients = clients;
    this.resources = resources;
    this.replies = new Replies(nodeTimeout);
    this.quorum = quorum;
  }

  static Nodes open(RedlockConfig config) {
    ClientResources resources =
        DefaultClientResources.builder()
            .ioThreadPoolSize(2)
            .computationThreadPoolSize(2)
            // Reconnect quickly after a node restarts; the default backs off up to 30 s.
            .reconnectDelay(Delay.exponential(Duration.ofMillis(10), Duration.ofSeconds(1), 2, TimeUnit.MILLISECONDS))
            .build();
    List<NodeClient> clients = new ArrayList<>();
    for (String uri : config.nodes()) {
      clients.add(new NodeClient(uri, resources, config.nodeTimeout(), config.connectTimeout()));
    }
    return new Nodes(List.copyOf(clients), resources, config.nodeTimeout(), config.quorum());
  }

  int size() {
    return clients.size();
  }

  int quorum() {
    return quorum;
  }

  NodeClient node(int index) {
    return clients.get(index);
  }

  List<Integer> all() {
    return IntStream.range(0, clients.size()).boxed().toList();
  }

  /** Starts one classified call per target node; the futures never fail. */
  List<CompletableFuture<NodeReply>> fanOut(
      List<Integer> targets, IntFunction<CompletableFuture<NodeReply>> call) {
    return targets.stream().map(call::apply).toList();
  }

  <T> CompletableFuture<NodeReply> call(
      int node, Function<NodeClient, CompletableFuture<T>> request, Function<T, NodeReply> onValue) {
    CompletableFuture<T> sent;
    try {
      sent = request.apply(clients.get(node));
    } catch (RuntimeException e) {
      sent = CompletableFuture.failedFuture(e); // e.g. a client already shut down
    }
    return replies.classify(node, sent, onValue);
  }

  /**
   * Compare-and-deletes {@code lockKey} on every node, including nodes that did not answer
   * before: a grant may have happened whose reply was lost. A node's delete is sent only once
   * that node's acquire request has settled ({@code settledPerNode}, indexed by node), so it can
   * never overtake the SET it must undo, while the other nodes need not wait for a slow one.
   * With {@code announce}, each delete is published on the key's {@link ReleaseChannel}.
   * Completes when every node has answered or timed out; never fails.
   *
   * @return how many nodes deleted a key of ours
   */
  CompletableFuture<Integer> releaseEverywhere(String lockKey, String owner,
      List<? extends CompletableFuture<?>> settledPerNode, boolean announce) {
    // Only a lease's release is a handoff worth announcing. A failed attempt's cleanup is not:
    // announced, it would wake the other waiters at once, whose own cleanups would wake this
    // one, and contending clients would retry in a tight loop while a majority is down.
    String[] args = announce ? new String[] {owner, ReleaseChannel.of(lockKey)} : new String[] {owner};
    List<CompletableFuture<NodeReply>> calls =
        fanOut(
            all(),
            i ->
                settledPerNode.get(i).handle((ignored, failure) -> i).thenCompose(node ->
                    call(
                        node,
                        n -> n.<Long>script(LuaScript.RELEASE, ScriptOutputType.INTEGER, new String[] {lockKey}, args),
                        deleted -> deleted == 1L ? NodeReply.granted(node, 1) : NodeReply.of(node, NodeStatus.REFUSED, "not ours"))));
    return CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new))
        .thenApply(ignored -> (int) calls.stream().filter(c -> c.join().isGranted()).count());
  }

  /** Per-node outcomes in configuration order; nodes without a reply are PENDING. */
  List<NodeOutcome> outcomes(List<NodeReply> known) {
    NodeReply[] byNode = new NodeReply[clients.size()];
    for (NodeReply reply : known) {
      byNode[reply.node()] = reply;
    }
    List<NodeOutcome> outcomes = new ArrayList<>();
    for (int i = 0; i < byNode.length; i++) {
      NodeReply reply = byNode[i] == null ? NodeReply.pending(i) : byNode[i];
      outcomes.add(reply.toOutcome(clients.get(i).label()));
    }
    return outcomes;
  }

  /** Waits up to {@code timeout} for every node's first connection; failures are tolerated. */
  void awaitConnections(Duration timeout) {
    CompletableFuture<?>[] connects =
        clients.stream().map(c -> c.connect().exceptionally(e -> null)).toArray(CompletableFuture[]::new);
    try {
      CompletableFuture.allOf(connects).get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (java.util.concurrent.TimeoutException e) {
      // Some node is slow or unreachable; it shows up as that node's outcome later.
    } catch (java.util.concurrent.ExecutionException e) {
      throw new IllegalStateException("connect futures are made infallible above", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    RuntimeException failure = null;
    for (NodeClient client : clients) {
      try {
        client.close();
      } catch (RuntimeException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    resources.shutdown(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(2, TimeUnit.SECONDS);
    if (failure != null) {
      throw failure;
    }
  }
}
