package io.fencedlock.redlock.internal;

import io.fencedlock.redlock.NodeStatus;
import io.fencedlock.redlock.RedlockConfig;
import io.fencedlock.redlock.Ticker;
import io.lettuce.core.KeyValue;
import io.lettuce.core.ScriptOutputType;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells nodes that lost their memory from nodes that did not, using the per-node marker key,
 * and decides when such a node may take part again. Thread-safe.
 *
 * <ul>
 *   <li>A new deployment is recognised only when <em>every</em> node answers and none has a
 *       marker; then each gets one, whose epoch (wall-clock ms × 1000) is the floor of every
 *       fence counter it creates. If some nodes do not answer, nothing is initialized: a
 *       majority could have restarted empty while the others are cut off.
 *   <li>A node without a marker while others have theirs restarted without its data. Phase 1
 *       refuses there (the script checks the marker), so it is never counted. After {@link
 *       RedlockConfig#maxLeaseTtl()} plus drift since this client first saw it, every lease
 *       it forgot has run out; it is then re-admitted with an epoch above the high-water mark
 *       of a quorum of the other nodes, which is above every token ever issued.
 * </ul>
 *
 * <p>This is the only place the wall clock is read, and it only matters if every node loses
 * its memory at once (see docs/analysis.md).
 */
final class NodeMembership {
  private static final Logger log = LoggerFactory.getLogger(NodeMembership.class);
  private static final long NOT_AMNESIC = Long.MIN_VALUE;

  private final Nodes nodes;
  private final Ticker ticker;
  private final long readmitAfterNanos;
  private final LongSupplier wallClockMillis;
  private final Duration adminTimeout;
  private final AtomicLongArray amnesicSince;
  private final AtomicIntegerArray readmitting;

  NodeMembership(Nodes nodes, RedlockConfig config, LongSupplier wallClockMillis) {
    this.nodes = nodes;
    this.ticker = config.ticker();
    this.readmitAfterNanos =
        config.maxLeaseTtl().toNanos() + Validity.driftNanos(config.maxLeaseTtl(), config.driftFactor());
    this.wallClockMillis = wallClockMillis;
    this.adminTimeout = config.connectTimeout();
    this.amnesicSince = new AtomicLongArray(nodes.size());
    this.readmitting = new AtomicIntegerArray(nodes.size());
    for (int i = 0; i < nodes.size(); i++) {
      amnesicSince.set(i, NOT_AMNESIC);
    }
  }

  /** Learns from one phase-1 reply; may start re-admitting the node in the background. */
  void observe(NodeReply reply) {
    int node = reply.node();
    if (reply.status() == NodeStatus.GRANTED || reply.status() == NodeStatus.REFUSED) {
      amnesicSince.set(node, NOT_AMNESIC); // the script saw a marker
    } else if (reply.status() == NodeStatus.UNINITIALIZED) {
      long now = ticker.read();
      if (amnesicSince.compareAndSet(node, NOT_AMNESIC, now)) {
        log.warn(
            "Redis node {} has no initialization marker: it restarted without its data. It is "
                + "excluded from quorums and will be re-admitted after {} ms if the others agree.",
            nodes.node(node).label(),
            readmitAfterNanos / 1_000_000);
      } else if (now - amnesicSince.get(node) > readmitAfterNanos
          && readmitting.compareAndSet(node, 0, 1)) {
        readmit(node).whenComplete((ok, e) -> readmitting.set(node, 0));
      }
    }
  }

  /**
   * If every phase-1 reply is UNINITIALIZED (all nodes answered, none has a marker), marks
   * every node as initialized. Completes with whether it did.
   */
  CompletableFuture<Boolean> initializeIfAllNew(List<CompletableFuture<NodeReply>> phase1) {
    return CompletableFuture.allOf(phase1.toArray(CompletableFuture[]::new))
        .thenCompose(
            ignored ->
                phase1.stream().allMatch(c -> c.join().status() == NodeStatus.UNINITIALIZED)
                    ? initializeAll()
                    : CompletableFuture.completedFuture(false));
  }

  /** At start-up: initializes a brand-new deployment, if every node answers without a marker. */
  CompletableFuture<Boolean> initializeIfNew() {
    List<CompletableFuture<NodeReply>> probes =
        nodes.fanOut(
            nodes.all(),
            i ->
                nodes.call(
                    i,
                    n -> n.mget(adminTimeout, KeySpace.NODE_MARKER),
                    values ->
                        values.get(0).hasValue()
                            ? NodeReply.of(i, NodeStatus.GRANTED, "has marker")
                            : NodeReply.of(i, NodeStatus.UNINITIALIZED, "no marker")));
    return initializeIfAllNew(probes);
  }

  private CompletableFuture<Boolean> initializeAll() {
    long epoch = Math.multiplyExact(wallClockMillis.getAsLong(), 1000L);
    log.info("All {} Redis nodes are new: initializing them with epoch {}", nodes.size(), epoch);
    CompletableFuture<?>[] marks =
        nodes.all().stream().map(i -> mark(i, epoch)).toArray(CompletableFuture[]::new);
    return CompletableFuture.allOf(marks).thenApply(ignored -> true);
  }

  private CompletableFuture<Boolean> readmit(int node) {
    List<Integer> others = nodes.all().stream().filter(i -> i != node).toList();
    List<CompletableFuture<NodeReply>> reads =
        nodes.fanOut(
            others,
            i -> nodes.call(i, n -> n.mget(KeySpace.NODE_MARKER, KeySpace.NODE_HIGH_WATER), kv -> highWater(i, kv)));
    return CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new))
        .thenCompose(
            ignored -> {
              List<NodeReply> marked = reads.stream().map(CompletableFuture::join).filter(NodeReply::isGranted).toList();
              if (marked.size() < nodes.quorum()) {
                log.warn("Cannot re-admit Redis node {} yet: only {} initialized nodes answered, need {}",
                    nodes.node(node).label(), marked.size(), nodes.quorum());
                return CompletableFuture.completedFuture(false);
              }
              long highest = marked.stream().mapToLong(NodeReply::value).max().orElse(0);
              long epoch = Math.max(Math.multiplyExact(wallClockMillis.getAsLong(), 1000L), highest + 1);
              return mark(node, epoch).thenApply(reply -> {
                log.info("Re-admitted Redis node {}: {}", nodes.node(node).label(), reply.detail());
                amnesicSince.set(node, NOT_AMNESIC);
                return reply.isGranted();
              });
            });
  }

  /** A node's marker epoch and high-water mark, the larger of the two as the reply's value. */
  private static NodeReply highWater(int node, List<KeyValue<String, String>> values) {
    if (!values.get(0).hasValue()) {
      return NodeReply.of(node, NodeStatus.UNINITIALIZED, "no marker");
    }
    long epoch = Long.parseLong(values.get(0).getValue());
    long mark = values.get(1).hasValue() ? Long.parseLong(values.get(1).getValue()) : 0;
    return NodeReply.granted(node, Math.max(epoch, mark));
  }

  /**
   * Gives a node its marker. Idempotent (SET NX), so it is retried: a node left unmarked after
   * a new deployment was initialized would look like one that lost its memory, and be shut out
   * for maxLeaseTtl.
   */
  private CompletableFuture<NodeReply> mark(int node, long epoch) {
    return markOnce(node, epoch).thenCompose(
        reply -> reply.isGranted() ? CompletableFuture.completedFuture(reply) : markOnce(node, epoch));
  }

  private CompletableFuture<NodeReply> markOnce(int node, long epoch) {
    return nodes.call(
        node,
        n -> n.<String>script(
            LuaScript.INIT_NODE,
            adminTimeout,
            ScriptOutputType.VALUE,
            new String[] {KeySpace.NODE_MARKER, KeySpace.NODE_HIGH_WATER},
            Long.toString(epoch)),
        value -> NodeReply.of(node, NodeStatus.GRANTED, "epoch " + value));
  }
}
