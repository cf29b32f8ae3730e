package io.fencedlock.redlock;

import io.fencedlock.redlock.spi.NodeDriver;
import io.fencedlock.redlock.spi.Scheduler;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.IntPredicate;
import java.util.stream.IntStream;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The configured Redis masters as the algorithm uses them, over a {@link NodeDriver}: fan-out,
 * classified replies, the release-everywhere step, per-node diagnostics, and the work a closing
 * client must wait for. Thread-safe.
 */
final class Nodes {
  private static final Logger log = LoggerFactory.getLogger(Nodes.class);
  private static final long CALL_BOUND_MARGIN_NANOS = TimeUnit.SECONDS.toNanos(1);

  /**
   * Per thread, the registered work whose completion handler it is running now: a {@code close()}
   * called from that handler must not wait for it.
   */
  private static final ThreadLocal<List<CompletableFuture<?>>> HANDLING =
      ThreadLocal.withInitial(ArrayList::new);

  private final NodeDriver driver;

  /** 0 .. size-1, the participants of a fan-out to every node. */
  private final List<Integer> all;

  private final Replies replies;
  private final int quorum;
  private final LeadNode leadNode;

  /** How long {@link #closeAsync} waits at most for {@link #stragglers}. */
  private final long closeWaitNanos;

  private volatile boolean closed;

  /** Set when closing starts: from then on no delete is held back. */
  private volatile boolean closing;

  /**
   * A naming release's reply value from the lead node when it named a waiter (see {@link
   * #holdUntilNamed}); 1 when it deleted and named nobody.
   */
  private static final long NAMED_A_WAITER = 2;

  /** How long a naming release holds back its other deletes at most (the node timeout). */
  private final long nodeTimeoutNanos;

  /** The held-back deletes of naming releases ({@link #holdUntilNamed}); sent on close. */
  private final Set<HeldBackDeletes> heldBack = ConcurrentHashMap.newKeySet();

  /**
   * Releases whose slower nodes have not answered yet, attempts in flight, and local handoffs;
   * {@link #closeAsync} waits for them.
   */
  private final Map<Long, CompletableFuture<?>> stragglers = new ConcurrentHashMap<>();

  /**
   * Keys of {@link #stragglers}: registration order, so closing chains on them the same way in
   * every run.
   */
  private final AtomicLong registered = new AtomicLong();

  Nodes(NodeDriver driver, RedlockConfig config) {
    this.driver = driver;
    this.all = IntStream.range(0, driver.size()).boxed().toList();
    this.replies = new Replies(config.nodeTimeout());
    this.quorum = config.quorum();
    this.closeWaitNanos = callBoundNanos(config);
    this.nodeTimeoutNanos = config.nodeTimeout().toNanos();
    List<String> identities = config.nodes().stream().map(LeadNode::identity).toList();
    this.leadNode = new LeadNode(identities.size(), identities::get, config.ticker());
  }

  /**
   * Longer than one attempt, extend or release can take: each waits for node timeouts only (phase
   * 1, phase 2, the cleanup's wait for a slow node and its delete, a local handoff's attempt, the
   * release of a lease an abandoned attempt gained), and a brand-new deployment's initialization
   * for administrative calls bounded by the connect timeout. The sync methods use it as their
   * safety net ({@link Futures#await}), closing as its longest wait.
   */
  static long callBoundNanos(RedlockConfig config) {
    return 2 * config.connectTimeout().toNanos()
        + 8 * config.nodeTimeout().toNanos()
        + CALL_BOUND_MARGIN_NANOS;
  }

  int size() {
    return all.size();
  }

  int quorum() {
    return quorum;
  }

  NodeDriver driver() {
    return driver;
  }

  String label(int node) {
    return driver.label(node);
  }

  List<Integer> all() {
    return all;
  }

  /** Which node a contended attempt asks first, per lock key. */
  LeadNode leadNode() {
    return leadNode;
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

  /**
   * {@link #fanOut} to every node, but to {@code first} (unless -1) before the others: the caller
   * writes to the nodes' sockets one after another, so the node that must act first (a lead node
   * that names the next client) gets its request first. The list is by node, as fanOut's.
   */
  List<CompletableFuture<NodeReply>> fanOutFirstTo(
      int first, IntFunction<CompletableFuture<NodeReply>> call) {
    if (first < 0) {
      return fanOut(all, call);
    }
    @SuppressWarnings("unchecked")
    CompletableFuture<NodeReply>[] calls = new CompletableFuture[all.size()];
    calls[first] = call.apply(first);
    for (int node = 0; node < calls.length; node++) {
      if (node != first) {
        calls[node] = call.apply(node);
      }
    }
    return List.of(calls);
  }

  /**
   * One driver call to {@code node}, classified: the future never fails (a failure or timeout
   * becomes an ERROR or TIMED_OUT reply, a reply {@code onValue} cannot read an ERROR).
   */
  <T> CompletableFuture<NodeReply> call(
      int node,
      Function<NodeDriver, CompletableFuture<T>> request,
      Function<T, NodeReply> onValue) {
    CompletableFuture<T> sent;
    try {
      sent = request.apply(driver);
    } catch (RuntimeException e) {
      sent = CompletableFuture.failedFuture(e); // e.g. a driver already closed
    }
    return replies.classify(node, sent, onValue);
  }

  /**
   * Undoes a failed acquire: compare-and-deletes {@code lockKey} on every node (see {@link
   * #deleteEverywhere}) and completes when every node has answered or timed out, so the attempt
   * leaves nothing behind when it reports its failure. Never fails.
   *
   * @param announce whether the deletes are announced on the key's {@link ReleaseChannel}. Normally
   *     not: announced, a failed attempt's cleanup would wake the other waiters at once, whose own
   *     cleanups would wake this one, and contending clients would retry in a tight loop while a
   *     majority is down. An attempt that carried a local handoff announces, since it stands in for
   *     its predecessor's release, which nobody else will announce.
   */
  CompletableFuture<Void> undoEverywhere(
      String lockKey,
      String owner,
      List<CompletableFuture<NodeReply>> settledPerNode,
      IntPredicate sentPerNode,
      boolean refusalsProveAbsence,
      boolean announce) {
    List<CompletableFuture<NodeReply>> calls =
        deleteEverywhere(
            lockKey,
            owner,
            announce,
            -1,
            0,
            settledPerNode,
            sentPerNode,
            refusalsProveAbsence,
            null);
    return CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new));
  }

  /**
   * Releases a lease: compare-and-deletes {@code lockKey} on every node (see {@link
   * #deleteEverywhere}), announced on the key's {@link ReleaseChannel}, and completes as soon as a
   * quorum has deleted it (from then on another client can acquire), or once that has become
   * impossible (with {@code leadFirst}, see below: on the lead's reply if it named a waiter). The
   * other deletes go on in the background, and {@link #close()} waits for them. Never fails.
   *
   * <p>Who announces: for a fenced lease ({@code token} above 0) that took the lock's lead node,
   * the lead node alone, naming the next waiter from the lock's waiter queue there (release.lua,
   * see {@link ReleaseWaiters}); should the lead not delete (wiped, paused, down), the other nodes
   * announce to every waiting client once the release is decided ({@link #announceForTheLead}).
   * Otherwise every node that deletes announces, and a waiting client acts on a quorum of copies.
   *
   * <p>With {@code leadFirst} (the releasing client met a rival on the lock lately, so waiters may
   * be queued), a naming release holds back its deletes on the other nodes until the lead node has
   * answered, and for a node timeout more if it named a waiter ({@link #holdBackUntilNamed}); the
   * release then completes with the lead's reply, as the lock has passed to the named client, whose
   * step deletes the key elsewhere. A lead that named nobody, did not delete or did not answer
   * costs the release that answer's wait before the other deletes go.
   */
  CompletableFuture<?> releaseLease(
      String lockKey,
      String owner,
      List<CompletableFuture<NodeReply>> settledPerNode,
      IntPredicate sentPerNode,
      boolean refusalsProveAbsence,
      long token,
      @Nullable Scheduler leadFirst) {
    CompletableFuture<Void> allDone = new CompletableFuture<>();
    awaitOnClose(allDone); // before sending, so a close() from now on waits for the deletes
    int namingNode = token > 0 ? leadIfTaken(lockKey, settledPerNode) : -1;
    // Not while the lead failed lately (paused, down): its reply would hold the others back a
    // node timeout.
    HeldBackDeletes held =
        namingNode >= 0 && leadFirst != null && leadNode.pick(lockKey) == namingNode
            ? holdBack()
            : null;
    List<CompletableFuture<NodeReply>> calls =
        deleteEverywhere(
            lockKey,
            owner,
            true,
            namingNode,
            token,
            settledPerNode,
            sentPerNode,
            refusalsProveAbsence,
            held);
    CompletableFuture<QuorumRound.Result> decided =
        QuorumRound.decide(all(), calls, quorum, allDone);
    if (namingNode < 0) {
      return decided;
    }
    CompletableFuture<NodeReply> leadRelease = calls.get(namingNode);
    announceForTheLead(lockKey, owner, namingNode, leadRelease, decided);
    if (held == null) {
      return decided;
    }
    // The hold is decided before the release completes (dependents of leadRelease itself would
    // run in no defined order), so a caller that returns from release() finds it in place.
    return leadRelease
        .whenComplete((reply, failure) -> holdUntilNamed(held, reply, leadFirst))
        .thenCompose(
            reply ->
                reply.value() == NAMED_A_WAITER
                    ? CompletableFuture.completedFuture(null)
                    : decided.thenApply(result -> null));
  }

  /** A new hold of a naming release's other deletes, sent at once if this client is closing. */
  private HeldBackDeletes holdBack() {
    HeldBackDeletes held = new HeldBackDeletes();
    heldBack.add(held);
    held.go.whenComplete((ignored, failure) -> heldBack.remove(held));
    if (closed || closing) {
      held.now(); // closeAsync may have flushed before this was registered
    }
    return held;
  }

  /**
   * Holds back a naming release's deletes on the nodes other than the lead ({@code held}) until the
   * lead has answered ({@code reply}, null if its call failed), and for a node timeout after it
   * named a waiter: the named client's lock step deletes the released owner's key on every node
   * itself (acquire.lua's ARGV[5]), so these deletes only matter if it never comes (crashed,
   * paused, cut off), and then they announce the release, as the named client did not pass it on.
   * Sent at once, they would reach the nodes while the named client's step does, and on hosts whose
   * cores the nodes share (here: five servers on two cores), their scripts delay that step.
   * Released at once when the lead did not name a waiter (who wakes then also deletes, but a lock
   * nobody waits for must be free at once), or when the client closes.
   */
  private void holdUntilNamed(HeldBackDeletes held, @Nullable NodeReply reply, Scheduler timers) {
    if (reply == null || reply.value() != NAMED_A_WAITER) {
      if (reply != null && !reply.isGranted() && reply.status() != NodeStatus.REFUSED) {
        leadNode.failed(reply.node()); // so that the next releases do not wait for it
      }
      held.now();
      return;
    }
    try {
      timers.schedule(held, nodeTimeoutNanos);
    } catch (RuntimeException rejected) {
      held.now(); // no timers (closing), or a scheduler that failed: nothing may stay held
    }
  }

  /**
   * A naming release's deletes on the nodes other than the lead, held back ({@link
   * #holdUntilNamed}); run when the hold is over. A type of its own, so that tests can tell it.
   */
  static final class HeldBackDeletes implements Runnable {
    /**
     * Completes when the deletes go: with true when the hold ran out, so that they announce the
     * release (the named client may never have stepped, and nobody else was told); with false when
     * they go early (the lead named nobody or failed, or the client closes).
     */
    private final CompletableFuture<Boolean> go = new CompletableFuture<>();

    private HeldBackDeletes() {}

    @Override
    public void run() {
      go.complete(true);
    }

    void now() {
      go.complete(false);
    }
  }

  /**
   * The node that keeps the lock's waiter queue ({@link LeadNode#home}) if this lease's acquire was
   * granted there (its lock step settled), else -1.
   */
  private int leadIfTaken(String lockKey, List<CompletableFuture<NodeReply>> settledPerNode) {
    int lead = leadNode.home(lockKey);
    CompletableFuture<NodeReply> acquired = settledPerNode.get(lead);
    return acquired.isDone() && !acquired.isCompletedExceptionally() && acquired.join().isGranted()
        ? lead
        : -1;
  }

  /**
   * When the lead node, which alone announces a release, did not delete (so announced nothing),
   * tells every waiting client through the other nodes ({@link #tellEveryone}) once the release is
   * decided and the lead's own reply is in (a paused lead: after a node timeout): otherwise they
   * would sleep until their retry delay beside a free lock.
   */
  private void announceForTheLead(
      String lockKey,
      String owner,
      int lead,
      CompletableFuture<NodeReply> leadRelease,
      CompletableFuture<?> decided) {
    CompletableFuture<Void> announced = new CompletableFuture<>();
    awaitOnClose(announced);
    leadRelease
        .thenCombine(decided, (reply, released) -> reply.isGranted())
        .whenComplete(
            (leadAnnounced, bug) -> {
              if (bug != null || leadAnnounced) {
                announced.complete(null);
              } else {
                tellEveryone(lockKey, owner, lead)
                    .whenComplete((ignored, failure) -> announced.complete(null));
              }
            });
  }

  /**
   * Publishes the owner id and a newline on the lock's channel through every node but {@code
   * except} (-1 for none): every client waiting for the lock acts on the first copy it gets ({@link
   * ReleaseWaiters}). Completes once every node has answered or timed out; {@link #close()} waits
   * for it. Never fails.
   */
  CompletableFuture<Void> tellEveryone(String lockKey, String owner, int except) {
    CompletableFuture<Void> told = new CompletableFuture<>();
    awaitOnClose(told);
    String channel = ReleaseChannel.of(lockKey);
    String message = owner + "\n";
    List<CompletableFuture<NodeReply>> copies =
        fanOut(
            all().stream().filter(node -> node != except).toList(),
            node ->
                call(
                    node,
                    d -> d.announce(node, channel, message),
                    listeners -> NodeReply.granted(node, 1)));
    CompletableFuture.allOf(copies.toArray(CompletableFuture[]::new))
        .whenComplete((ignored, failure) -> told.complete(null));
    return told;
  }

  /** Makes {@link #close()} wait (bounded) for {@code work} to complete. */
  void awaitOnClose(CompletableFuture<?> work) {
    long key = registered.incrementAndGet();
    stragglers.put(key, work);
    work.whenComplete((ignored, failure) -> stragglers.remove(key));
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

  /**
   * Sends release.lua to every node that may hold the key, including nodes that did not answer the
   * acquire: a grant may have happened whose reply was lost. Skipped are nodes without a marker
   * (the script refuses before it locks) and, with {@code refusalsProveAbsence}, nodes that
   * refused: acquire.lua grants a request delivered twice instead of refusing it, so its refusal
   * means another owner; a plain {@code SET NX} refusal does not prove that, as the first delivery
   * of the same request may have set the key.
   *
   * <p>A node's delete is sent only once that node's acquire request has gone out ({@code
   * sentPerNode}) or settled ({@code settledPerNode}, indexed by node), so it can never overtake
   * the SET it must undo, while the other nodes need not wait for a slow one. A reply is GRANTED
   * where a key of ours was deleted. With {@code announce}, each node that deletes publishes the
   * owner id on the key's {@link ReleaseChannel}; if {@code namingNode} is a node, that node alone
   * announces, naming the next waiter and telling it {@code token} (release.lua's waiter queue).
   */
  private List<CompletableFuture<NodeReply>> deleteEverywhere(
      String lockKey,
      String owner,
      boolean announce,
      int namingNode,
      long token,
      List<CompletableFuture<NodeReply>> settledPerNode,
      IntPredicate sentPerNode,
      boolean refusalsProveAbsence,
      @Nullable HeldBackDeletes held) {
    String announceOn = announce ? ReleaseChannel.of(lockKey) : null;
    IntFunction<CompletableFuture<NodeReply>> release =
        node -> deleteOn(node, lockKey, owner, announceOn, namingNode, token, false);
    return afterEachSettled(
        settledPerNode,
        sentPerNode,
        refusalsProveAbsence,
        namingNode, // its announcement is what the next holder waits for
        held == null
            ? release
            : node ->
                node == namingNode
                    ? release.apply(node)
                    : held.go.thenCompose(
                        holdRanOut ->
                            deleteOn(
                                node, lockKey, owner, announceOn, namingNode, token, holdRanOut)));
  }

  /**
   * One node's compare-and-delete of a release: on {@code namingNode}, naming the next waiter;
   * elsewhere announced only where no node names ({@code namingNode} is -1), or when {@code
   * announceAnyway}.
   */
  private CompletableFuture<NodeReply> deleteOn(
      int node,
      String lockKey,
      String owner,
      @Nullable String announceOn,
      int namingNode,
      long token,
      boolean announceAnyway) {
    return node == namingNode && announceOn != null
        ? call(
            node,
            d ->
                d.releaseNamingNext(
                    node, lockKey, owner, announceOn, ReleaseChannel.namedPrefix(lockKey), token),
            outcome ->
                switch (outcome) {
                  case NAMED -> NodeReply.granted(node, NAMED_A_WAITER);
                  case TOLD_EVERYONE -> NodeReply.granted(node, 1);
                  case KEPT -> NodeReply.of(node, NodeStatus.REFUSED, "not ours");
                })
        : call(
            node,
            // with a naming node, it alone announces
            d ->
                d.release(
                    node, lockKey, owner, namingNode < 0 || announceAnyway ? announceOn : null),
            deleted ->
                deleted
                    ? NodeReply.granted(node, 1)
                    : NodeReply.of(node, NodeStatus.REFUSED, "not ours"));
  }

  /**
   * Sends {@code release} to every node that may hold what an acquire took, never ahead of the
   * acquire's request there, and to none where the acquire's reply proves nothing was taken (see
   * {@link NodeReply#tookNothing}). A node whose request has settled ({@code settledPerNode}, by
   * node) or gone out ({@code sentPerNode}) gets it at once; any other once its request settles.
   *
   * <p>Why a request that has gone out need not have settled: the driver runs a node's requests in
   * the order they were sent and never sends a lock step again (see {@link NodeDriver}), so the
   * release reaches the node after it. Waiting for the reply instead would hold the release back by
   * the slowest nodes' replies; a client that acquires the same key again right after would then
   * meet its own old key on those nodes, and take the refusal for a rival.
   */
  List<CompletableFuture<NodeReply>> afterEachSettled(
      List<CompletableFuture<NodeReply>> settledPerNode,
      IntPredicate sentPerNode,
      boolean refusalsProveAbsence,
      IntFunction<CompletableFuture<NodeReply>> release) {
    return afterEachSettled(settledPerNode, sentPerNode, refusalsProveAbsence, -1, release);
  }

  /** {@link #afterEachSettled}, sent to {@code first} (unless -1) before the other nodes. */
  private List<CompletableFuture<NodeReply>> afterEachSettled(
      List<CompletableFuture<NodeReply>> settledPerNode,
      IntPredicate sentPerNode,
      boolean refusalsProveAbsence,
      int first,
      IntFunction<CompletableFuture<NodeReply>> release) {
    return fanOutFirstTo(
        first,
        node -> {
          CompletableFuture<NodeReply> settled = settledPerNode.get(node);
          if (settled.isDone()) { // the usual case: no need to chain on it
            return releaseUnlessUntaken(
                node,
                settled.isCompletedExceptionally() ? null : settled.join(),
                refusalsProveAbsence,
                release);
          }
          if (sentPerNode.test(node)) {
            return release.apply(node); // its outcome is unknown: it may have taken the key
          }
          return settled
              .handle((acquired, failure) -> acquired)
              .thenCompose(
                  acquired -> releaseUnlessUntaken(node, acquired, refusalsProveAbsence, release));
        });
  }

  private static CompletableFuture<NodeReply> releaseUnlessUntaken(
      int node,
      @Nullable NodeReply acquired,
      boolean refusalsProveAbsence,
      IntFunction<CompletableFuture<NodeReply>> release) {
    if (acquired != null && acquired.tookNothing(refusalsProveAbsence)) {
      return CompletableFuture.completedFuture(
          NodeReply.of(node, NodeStatus.REFUSED, "never locked there"));
    }
    return release.apply(node);
  }

  /** Per-node outcomes in configuration order; nodes without a reply are NO_REPLY_YET. */
  List<NodeOutcome> outcomes(List<NodeReply> known) {
    NodeReply[] byNode = new NodeReply[size()];
    for (NodeReply reply : known) {
      byNode[reply.node()] = reply;
    }
    List<NodeOutcome> outcomes = new ArrayList<>();
    for (int i = 0; i < byNode.length; i++) {
      NodeReply reply = byNode[i] == null ? NodeReply.pending(i) : byNode[i];
      outcomes.add(reply.toOutcome(driver.label(i)));
    }
    return outcomes;
  }

  /** Whether closing has stopped waiting for work: nothing sent from now on is waited for. */
  boolean isClosed() {
    return closed;
  }

  /**
   * Waits for the registered work (each piece bounded by node timeouts; in all at most {@link
   * #callBoundNanos}, timed on {@code timers}), then closes the driver. Never fails.
   */
  CompletableFuture<Void> closeAsync(Scheduler timers) {
    closing = true;
    for (HeldBackDeletes deletes : List.copyOf(heldBack)) {
      deletes.now(); // nothing is held back once closing: the deletes go now
    }
    CompletableFuture<Void> bound = new CompletableFuture<>();
    try {
      timers.schedule(() -> bound.complete(null), closeWaitNanos);
    } catch (RejectedExecutionException e) {
      bound.complete(null); // no timers left: wait no longer than the work that is already done
    }
    CompletableFuture<Void> done = new CompletableFuture<>();
    awaitStragglers(bound, HANDLING.get())
        .whenComplete(
            (ignored, failure) -> {
              closed = true;
              if (driver.isDriverThread()) {
                // The last straggler completed on one of the driver's threads, which closing the
                // driver waits for: close it from a thread of its own.
                Thread closer = new Thread(() -> closeDriver(done), "redlock-close");
                closer.setDaemon(true);
                closer.start();
              } else {
                closeDriver(done);
              }
            });
    return done;
  }

  private void closeDriver(CompletableFuture<Void> done) {
    try {
      driver.close();
    } catch (RuntimeException e) {
      log.warn("closing the node driver failed", e);
    } finally {
      done.complete(null);
    }
  }

  /**
   * Waits for the work registered with {@link #awaitOnClose}, including work registered while
   * waiting (a lease that an abandoned attempt gains registers its release before the attempt's own
   * entry goes), until {@code bound} completes. {@code ownWork}, the work whose handler called
   * close, would wait for itself, and is left out.
   */
  private CompletableFuture<Void> awaitStragglers(
      CompletableFuture<Void> bound, List<CompletableFuture<?>> ownWork) {
    List<CompletableFuture<?>> others = new ArrayList<>(new TreeMap<>(stragglers).values());
    List<CompletableFuture<?>> own = List.copyOf(ownWork);
    others.removeIf(work -> work.isDone() || own.stream().anyMatch(mine -> mine == work));
    if (others.isEmpty() || bound.isDone()) {
      return CompletableFuture.completedFuture(null);
    }
    CompletableFuture<Void> all = CompletableFuture.allOf(others.toArray(CompletableFuture[]::new));
    return CompletableFuture.anyOf(all, bound)
        .handle((ignored, failure) -> null)
        .thenCompose(ignored -> awaitStragglers(bound, own));
  }
}
