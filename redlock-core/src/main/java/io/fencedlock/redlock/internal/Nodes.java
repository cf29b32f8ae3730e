package io.fencedlock.redlock.internal;

import io.fencedlock.redlock.NodeOutcome;
import io.fencedlock.redlock.NodeStatus;
import io.fencedlock.redlock.RedlockConfig;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.Delay;
import io.lettuce.core.resource.DefaultClientResources;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.stream.IntStream;
import org.jspecify.annotations.Nullable;

/**
 * The configured Redis masters and the Lettuce resources they share: fan-out, the
 * release-everywhere step, and per-node diagnostics. Thread-safe.
 */
final class Nodes implements AutoCloseable {
  private static final long CALL_BOUND_MARGIN_NANOS = TimeUnit.SECONDS.toNanos(1);

  private final List<NodeClient> clients;
  /** 0 .. size-1, the participants of a fan-out to every node. */
  private final List<Integer> all;
  private final ClientResources resources;
  private final RequestTimer timer;
  private final Replies replies;
  private final int quorum;
  private volatile boolean closed;
  /** Every thread this client runs callbacks on. */
  private final OwnThreads threads;
  /**
   * Per thread, the registered work whose completion handler it is running now: a {@code
   * close()} called from that handler must not wait for it.
   */
  private static final ThreadLocal<List<CompletableFuture<?>>> HANDLING = ThreadLocal.withInitial(ArrayList::new);
  /** How long {@link #close()} waits at most for {@link #stragglers}. */
  private final long closeWaitNanos;
  /**
   * Releases whose slower nodes have not answered yet, and attempts that carry a release (local
   * handoffs); {@link #close()} waits for them.
   */
  private final Set<CompletableFuture<?>> stragglers = ConcurrentHashMap.newKeySet();

  private Nodes(List<NodeClient> clients, ClientResources resources, RequestTimer timer, Duration nodeTimeout, int quorum,
      long closeWaitNanos, OwnThreads threads) {
    this.threads = threads;
    this.clients = clients;
    this.all = IntStream.range(0, clients.size()).boxed().toList();
    this.resources = resources;
    this.timer = timer;
    this.replies = new Replies(nodeTimeout);
    this.quorum = quorum;
    this.closeWaitNanos = closeWaitNanos;
  }

  /**
   * Longer than one attempt, extend or release can take: each waits for node timeouts only
   * (phase 1, phase 2, the cleanup's wait for a slow node and its delete, a local handoff's
   * attempt, the release of a lease an abandoned attempt gained), and a brand-new deployment's
   * initialization for administrative calls bounded by the connect timeout. The sync methods
   * use it as their safety net ({@link Futures#await}), {@link #close()} as its longest wait.
   */
  static long callBoundNanos(RedlockConfig config) {
    return 2 * config.connectTimeout().toNanos() + 8 * config.nodeTimeout().toNanos() + CALL_BOUND_MARGIN_NANOS;
  }

  static Nodes open(RedlockConfig config) {
    OwnThreads threads = new OwnThreads();
    ClientResources resources =
        DefaultClientResources.builder()
            .ioThreadPoolSize(2)
            .computationThreadPoolSize(2)
            .threadFactoryProvider(pool -> threads.track(new DefaultThreadFactory(pool, true)))
            // Reconnect quickly after a node restarts; the default backs off up to 30 s.
            .reconnectDelay(Delay.exponential(Duration.ofMillis(10), Duration.ofSeconds(1), 2, TimeUnit.MILLISECONDS))
            .build();
    RequestTimer timer = new RequestTimer(config.nodeTimeout(), threads.factory("redlock-timeouts"));
    List<NodeClient> clients = new ArrayList<>();
    for (String uri : config.nodes()) {
      clients.add(new NodeClient(uri, resources, timer, config.connectTimeout()));
    }
    return new Nodes(List.copyOf(clients), resources, timer, config.nodeTimeout(), config.quorum(),
        callBoundNanos(config), threads);
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
    return all;
  }

  /** Starts one classified call per target node; the futures never fail. */
  List<CompletableFuture<NodeReply>> fanOut(
      List<Integer> targets, IntFunction<CompletableFuture<NodeReply>> call) {
    @SuppressWarnings("unchecked")
    CompletableFuture<NodeReply>[] calls = new CompletableFuture[targets.size()];
    for (int i = 0; i < calls.length; i++) {
      calls[i] = call.apply(targets.get(i));
    }
    return List.of(calls);
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
   * Undoes a failed acquire: compare-and-deletes {@code lockKey} on every node (see {@link
   * #deleteEverywhere}) and completes when every node has answered or timed out, so the
   * attempt leaves nothing behind when it reports its failure. Never fails.
   *
   * @param announce whether the deletes are announced on the key's {@link ReleaseChannel}.
   *     Normally not: announced, a failed attempt's cleanup would wake the other waiters at
   *     once, whose own cleanups would wake this one, and contending clients would retry in a
   *     tight loop while a majority is down. An attempt that carried a local handoff announces,
   *     since it stands in for its predecessor's release, which nobody else will announce.
   */
  CompletableFuture<Void> undoEverywhere(String lockKey, String owner,
      List<CompletableFuture<NodeReply>> settledPerNode, boolean refusalsProveAbsence, boolean announce) {
    List<CompletableFuture<NodeReply>> calls = deleteEverywhere(lockKey, owner, announce, settledPerNode, refusalsProveAbsence);
    return CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new));
  }

  /**
   * Releases a lease: compare-and-deletes {@code lockKey} on every node (see {@link
   * #deleteEverywhere}), announcing each delete on the key's {@link ReleaseChannel}, and
   * completes as soon as a quorum has deleted it (from then on another client can acquire),
   * or once that has become impossible. The other deletes go on in the background, and
   * {@link #close()} waits for them. Never fails.
   */
  CompletableFuture<?> releaseLease(String lockKey, String owner,
      List<CompletableFuture<NodeReply>> settledPerNode, boolean refusalsProveAbsence) {
    CompletableFuture<Void> allDone = new CompletableFuture<>();
    awaitOnClose(allDone); // before sending, so a close() from now on waits for the deletes
    List<CompletableFuture<NodeReply>> calls = deleteEverywhere(lockKey, owner, true, settledPerNode, refusalsProveAbsence);
    return QuorumRound.decide(all(), calls, quorum, allDone);
  }

  /** Makes {@link #close()} wait (bounded) for {@code work} to complete. */
  void awaitOnClose(CompletableFuture<?> work) {
    stragglers.add(work);
    work.whenComplete((ignored, failure) -> stragglers.remove(work));
  }

  /**
   * Runs {@code handler}, the last step of registered {@code work}, which completes after it: a
   * {@link #close()} the handler calls (through a caller's callback) does not wait for it.
   */
  void runFinishing(CompletableFuture<?> work, Runnable handler) {
    List<CompletableFuture<?>> handling = HANDLING.get();
    handling.add(work);
    try {
      handler.run();
    } finally {
      handling.remove(handling.size() - 1);
    }
  }

  /** This client's threads, to make more of them and to tell them apart. */
  OwnThreads threads() {
    return threads;
  }

  /**
   * Sends release.lua to every node that may hold the key, including nodes that did not answer
   * the acquire: a grant may have happened whose reply was lost. Skipped are nodes without a
   * marker (the script refuses before it locks) and, with {@code refusalsProveAbsence}, nodes
   * that refused: acquire.lua grants a request delivered twice instead of refusing it, so its
   * refusal means another owner; a plain {@code SET NX} refusal does not prove that, as the
   * first delivery of the same request may have set the key.
   *
   * <p>A node's delete is sent only once that node's acquire request has settled ({@code
   * settledPerNode}, indexed by node), so it can never overtake the SET it must undo, while the
   * other nodes need not wait for a slow one. A reply is GRANTED where a key of ours was deleted.
   * With {@code announce}, each node that deletes publishes the owner id on the key's {@link
   * ReleaseChannel}.
   */
  private List<CompletableFuture<NodeReply>> deleteEverywhere(String lockKey, String owner, boolean announce,
      List<CompletableFuture<NodeReply>> settledPerNode, boolean refusalsProveAbsence) {
    String[] args = announce ? new String[] {owner, ReleaseChannel.of(lockKey)} : new String[] {owner};
    String[] keys = {lockKey};
    return fanOut(all(), node -> {
      CompletableFuture<NodeReply> settled = settledPerNode.get(node);
      if (settled.isDone()) { // the usual case: no need to chain on it
        return releaseUnlessUnlocked(node, settled.isCompletedExceptionally() ? null : settled.join(),
            refusalsProveAbsence, keys, args);
      }
      return settled
          .handle((acquired, failure) -> acquired)
          .thenCompose(acquired -> releaseUnlessUnlocked(node, acquired, refusalsProveAbsence, keys, args));
    });
  }

  /** Sends release.lua to {@code node} unless its acquire reply (null if none) proves nothing was locked. */
  private CompletableFuture<NodeReply> releaseUnlessUnlocked(int node, @Nullable NodeReply acquired,
      boolean refusalsProveAbsence, String[] keys, String[] args) {
    if (acquired != null && acquired.tookNothing(refusalsProveAbsence)) {
      return CompletableFuture.completedFuture(NodeReply.of(node, NodeStatus.REFUSED, "never locked there"));
    }
    return call(
        node,
        n -> n.<Long>script(LuaScript.RELEASE, ScriptOutputType.INTEGER, keys, args),
        deleted -> deleted == 1L ? NodeReply.granted(node, 1) : NodeReply.of(node, NodeStatus.REFUSED, "not ours"));
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

  /**
   * Waits for the releases still in flight (each is bounded: its acquire's timeout, then its
   * own), then closes every connection.
   */
  /** Whether {@link #close()} has stopped waiting for work: nothing sent from now on is waited for. */
  boolean isClosed() {
    return closed;
  }

  @Override
  public void close() {
    awaitStragglers();
    closed = true;
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
    timer.close(); // last: requests the clients' shutdown left unanswered fail now
    if (failure != null) {
      throw failure;
    }
  }

  /**
   * Waits for the work registered with {@link #awaitOnClose}, including work registered while
   * waiting (a lease that an abandoned attempt gains registers its release before the attempt's
   * own entry goes), each bounded by node timeouts; never longer than {@link #closeWaitNanos}.
   */
  private void awaitStragglers() {
    long deadline = System.nanoTime() + closeWaitNanos;
    List<CompletableFuture<?>> ownWork = HANDLING.get();
    while (true) {
      List<CompletableFuture<?>> others = new ArrayList<>(stragglers);
      // Work of the handler this thread runs would wait for itself; finished work is on its way out.
      others.removeIf(work -> work.isDone() || ownWork.stream().anyMatch(own -> own == work));
      if (others.isEmpty()) {
        return;
      }
      CompletableFuture<?>[] pending = others.toArray(CompletableFuture[]::new);
      try {
        CompletableFuture.allOf(pending).get(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
      } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
        // Cannot happen with bounded, infallible work; closing anyway only loses a delete whose
        // key still expires with its TTL.
        return;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }
}
