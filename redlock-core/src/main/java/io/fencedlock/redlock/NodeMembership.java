package io.fencedlock.redlock;

import io.fencedlock.redlock.spi.NodeKeys;
import io.fencedlock.redlock.spi.NodeMarks;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells nodes that lost their memory from nodes that did not, using the per-node marker key, and
 * decides when such a node may take part again. Thread-safe.
 *
 * <ul>
 *   <li>A new deployment is recognised only when <em>every</em> node answers and none has a marker;
 *       then each gets one, whose epoch (wall-clock ms × 1000) is the floor of every fence counter
 *       it creates. If some nodes do not answer, nothing is initialized: a majority could have
 *       restarted empty while the others are cut off.
 *   <li>A node without a marker while others have theirs restarted without its data. Phase 1
 *       refuses there (the script checks the marker), so it is never counted. The first client to
 *       see it so names that empty incarnation with a random id kept on the node ({@link
 *       NodeKeys#EMPTY}); a further loss of memory erases the name. Each client times its wait from
 *       the moment it first read the current name: after {@link RedlockConfig#maxLeaseTtl()} plus
 *       drift from then, every lease the node forgot has run out (every client's TTLs must be at
 *       most that), and the client re-admits it with an epoch above the high-water mark of a quorum
 *       of the other nodes, which is above every token ever issued, if the node still carries the
 *       same name.
 * </ul>
 *
 * <p>The wall clock is read only for epochs, and only matters if every node loses its memory at
 * once (see docs/analysis.md). Waits are timed with the ticker.
 */
final class NodeMembership {
  private static final Logger log = LoggerFactory.getLogger(NodeMembership.class);

  /** A name of a node's empty incarnation, and when this client first read it. */
  private record Sighting(String incarnation, long firstSeenNanos) {}

  private final Nodes nodes;
  private final Ticker ticker;
  private final long readmitAfterNanos;
  private final LongSupplier wallClockMillis;
  private final Supplier<String> names;
  private final RedlockMetrics metrics;

  /** Per node, the empty incarnation this client last saw, or null. */
  private final AtomicReferenceArray<Sighting> sightings;

  /** Per node, 1 while a look at its incarnation (and maybe a re-admission) is in flight. */
  private final AtomicIntegerArray looking;

  NodeMembership(
      Nodes nodes,
      RedlockConfig config,
      RedlockMetrics metrics,
      LongSupplier wallClockMillis,
      Supplier<String> names) {
    this.names = names;
    this.metrics = metrics;
    this.nodes = nodes;
    this.ticker = config.ticker();
    this.readmitAfterNanos =
        config.maxLeaseTtl().toNanos()
            + Validity.driftNanos(config.maxLeaseTtl(), config.driftFactor());
    this.wallClockMillis = wallClockMillis;
    this.sightings = new AtomicReferenceArray<>(nodes.size());
    this.looking = new AtomicIntegerArray(nodes.size());
  }

  /** Learns from one phase-1 reply; may look at the node, and re-admit it, in the background. */
  void observe(NodeReply reply) {
    int node = reply.node();
    if (reply.status() == NodeStatus.GRANTED || reply.status() == NodeStatus.REFUSED) {
      sightings.set(node, null); // the script saw a marker
    } else if (reply.status() == NodeStatus.UNINITIALIZED
        && lookDue(node)
        && looking.compareAndSet(node, 0, 1)) {
      lookAt(node).whenComplete((ignored, e) -> looking.set(node, 0));
    }
  }

  /**
   * A node is looked at when first seen empty, and again once the wait for the incarnation seen
   * then is over; not in between, when nothing could come of it. If the node lost its memory again
   * meanwhile, that look finds a new name and the wait starts over.
   */
  private boolean lookDue(int node) {
    Sighting last = sightings.get(node);
    return last == null || ticker.read() - last.firstSeenNanos() > readmitAfterNanos;
  }

  /**
   * Reads (or gives) the name of the node's empty incarnation, then either starts this client's
   * wait for it, or re-admits the node if the wait for this same incarnation is over.
   */
  private CompletableFuture<?> lookAt(int node) {
    return nameEmptyIncarnation(node)
        .thenCompose(
            reply -> {
              if (!reply.isGranted()) {
                return CompletableFuture.completedFuture(
                    null); // no answer: look again at the next refusal
              }
              String incarnation = reply.detail();
              long now = ticker.read(); // after the name was read: the incarnation began before now
              Sighting last = sightings.get(node);
              if (incarnation.isEmpty()) {
                sightings.set(node, null); // re-admitted meanwhile
              } else if (last == null || !last.incarnation().equals(incarnation)) {
                sightings.set(node, new Sighting(incarnation, now));
                metrics.nodeExcluded();
                log.warn(
                    "Redis node {} has no initialization marker: it restarted without its data. It"
                        + " is excluded from quorums and will be re-admitted after {} ms if the"
                        + " others agree.",
                    nodes.label(node),
                    readmitAfterNanos / 1_000_000);
              } else if (now - last.firstSeenNanos() > readmitAfterNanos) {
                return readmit(node, incarnation);
              }
              return CompletableFuture.completedFuture(null);
            });
  }

  private CompletableFuture<NodeReply> nameEmptyIncarnation(int node) {
    return nodes.call(
        node,
        d -> d.nameEmptyIncarnation(node, names.get()),
        name -> NodeReply.of(node, NodeStatus.GRANTED, name));
  }

  /**
   * If every phase-1 reply is UNINITIALIZED (all nodes answered, none has a marker), marks every
   * node as initialized. Completes with whether it did.
   */
  CompletableFuture<Boolean> initializeIfAllNew(List<CompletableFuture<NodeReply>> phase1) {
    return CompletableFuture.allOf(phase1.toArray(CompletableFuture[]::new))
        .thenCompose(
            ignored ->
                phase1.stream().allMatch(c -> c.join().status() == NodeStatus.UNINITIALIZED)
                    ? initializeAll()
                    : CompletableFuture.completedFuture(false));
  }

  /**
   * After a failed lock step (single or multi-resource): if every node answered it UNINITIALIZED, a
   * brand-new deployment that {@code create()} could not initialize (a node was down or slow then),
   * initializes it and runs the step once more ({@code retry}); otherwise completes with {@code
   * failed}.
   */
  <T> CompletableFuture<T> retryIfAllNew(
      List<CompletableFuture<NodeReply>> lockStep, Supplier<CompletableFuture<T>> retry, T failed) {
    return initializeIfAllNew(lockStep)
        .thenCompose(
            initialized -> initialized ? retry.get() : CompletableFuture.completedFuture(failed));
  }

  /** At start-up: initializes a brand-new deployment, if every node answers without a marker. */
  CompletableFuture<Boolean> initializeIfNew() {
    List<CompletableFuture<NodeReply>> probes =
        nodes.fanOut(
            nodes.all(),
            i ->
                nodes.call(
                    i,
                    d -> d.hasMarker(i),
                    marked ->
                        marked
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

  private CompletableFuture<Void> readmit(int node, String incarnation) {
    List<Integer> others = nodes.all().stream().filter(i -> i != node).toList();
    List<CompletableFuture<NodeReply>> reads =
        nodes.fanOut(others, i -> nodes.call(i, d -> d.readMarks(i), marks -> highWater(i, marks)));
    return CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new))
        .thenCompose(
            ignored -> {
              List<NodeReply> marked =
                  reads.stream().map(CompletableFuture::join).filter(NodeReply::isGranted).toList();
              if (marked.size() < nodes.quorum()) {
                log.warn(
                    "Cannot re-admit Redis node {} yet: only {} initialized nodes answered, need"
                        + " {}",
                    nodes.label(node),
                    marked.size(),
                    nodes.quorum());
                return CompletableFuture.completedFuture(null);
              }
              long highest = marked.stream().mapToLong(NodeReply::value).max().orElse(0);
              long epoch =
                  Math.max(Math.multiplyExact(wallClockMillis.getAsLong(), 1000L), highest + 1);
              return markOnce(node, epoch, incarnation)
                  .thenAccept(reply -> afterReadmission(node, reply));
            });
  }

  /**
   * Logs and forgets the sighting only if the marker is there now; a failed write changes nothing.
   */
  private void afterReadmission(int node, NodeReply reply) {
    String label = nodes.label(node);
    switch (reply.status()) {
      case GRANTED -> {
        sightings.set(node, null);
        log.info("Re-admitted Redis node {}: {}", label, reply.detail());
      }
      case REFUSED -> {
        sightings.set(node, null);
        log.debug("Redis node {} not re-admitted by this client: {}", label, reply.detail());
      }
      default ->
          log.debug("Re-admitting Redis node {} failed, will retry: {}", label, reply.detail());
    }
  }

  /** A node's marker epoch and high-water mark, the larger of the two as the reply's value. */
  private static NodeReply highWater(int node, NodeMarks marks) {
    if (!marks.initialized()) {
      return NodeReply.of(node, NodeStatus.UNINITIALIZED, "no marker");
    }
    return NodeReply.granted(node, Math.max(marks.epoch(), marks.highWater()));
  }

  /**
   * Gives a node its marker at the start of a new deployment. Idempotent (SET NX), so it is
   * retried: a node left unmarked after a new deployment was initialized would look like one that
   * lost its memory, and be shut out for maxLeaseTtl.
   */
  private CompletableFuture<NodeReply> mark(int node, long epoch) {
    return markOnce(node, epoch, null)
        .thenCompose(
            reply ->
                reply.isGranted() || reply.status() == NodeStatus.REFUSED
                    ? CompletableFuture.completedFuture(reply)
                    : markOnce(node, epoch, null));
  }

  /**
   * Runs init-node.lua: GRANTED if this call set the marker; REFUSED if the node already had one,
   * or (with {@code incarnation}) no longer carries that name; ERROR or TIMED_OUT if the write may
   * not have happened.
   */
  private CompletableFuture<NodeReply> markOnce(
      int node, long epoch, @Nullable String incarnation) {
    return nodes.call(
        node,
        d -> d.initialize(node, epoch, incarnation),
        reply ->
            switch (reply.outcome()) {
              case SET -> NodeReply.of(node, NodeStatus.GRANTED, "epoch " + reply.epoch());
              case ALREADY_INITIALIZED ->
                  NodeReply.of(
                      node, NodeStatus.REFUSED, "already initialized with epoch " + reply.epoch());
              case OTHER_INCARNATION ->
                  NodeReply.of(
                      node, NodeStatus.REFUSED, "it lost its memory again since it was seen empty");
            });
  }
}
