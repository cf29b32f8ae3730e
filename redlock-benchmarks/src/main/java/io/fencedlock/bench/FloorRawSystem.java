package io.fencedlock.bench;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The real floor of a quorum lock on this machine: the least a JVM client can spend on {@code SET
 * key owner NX PX ttl} to every node, done at the quorum-th {@code +OK}, then {@code DEL key} to
 * every node, done at the quorum-th reply. No client library: RESP by hand ({@link RespCommands},
 * {@link RespReplyParser}), one non-blocking connection per node, one I/O thread that reads ({@link
 * RawNodes}), and the caller writes its command to the five sockets itself, then parks until the
 * deciding reply unparks it ({@link QuorumStep}). Like {@link FloorSystem}, not a real lock: DEL is
 * not compare-and-delete, and a refused SET is not retried; a refused one is undone with DEL on
 * every node (sent on the same connections after the SETs, so it runs after them everywhere; the
 * scripted floors below undo with their compare-and-delete instead). Thread-safe; many callers
 * pipeline their commands on the same connections.
 *
 * <p>Its {@link Steps} make it the floor of a lock that must run scripts: a real lock's release
 * checks the owner, which Redis 6.2 can only do in a script, and a fenced acquire writes its token
 * in the same step as it takes the key. Those floors say how much of a client's distance to
 * floor-raw is the servers' scripts, which no client can avoid, and how much is the client's own.
 */
final class FloorRawSystem implements LockSystem {
  /** What one operation sends: floor-raw's plain commands, or the smallest scripts a lock needs. */
  enum Steps {
    /** {@code SET NX PX}, then {@code DEL}: floor-raw. */
    PLAIN,
    /**
     * {@code SET NX PX}, then the smallest compare-and-delete ({@link
     * RespCommands#RELEASE_SCRIPT}): the least an unfenced lock can do.
     */
    COMPARE_AND_DELETE,
    /**
     * The smallest fenced acquire that predicts its token ({@link RespCommands#ACQUIRE_SCRIPT}),
     * then that compare-and-delete: the least a fenced lock's one-round-trip path can do.
     */
    FENCED
  }

  /** The scenarios a scripted floor runs in; floor-raw itself runs in all it can. */
  private static final Set<String> SCRIPTED_SCENARIOS = Set.of("1", "2");

  private final String name;
  private final RawNodes nodes;
  private final int needed;
  private final Steps steps;

  /** The next token a {@link Steps#FENCED} acquire predicts, above every one before it. */
  private final AtomicLong tokens = new AtomicLong();

  private final CommandBuffers buffers = new CommandBuffers();

  /** floor-raw ({@link Steps#PLAIN}). */
  FloorRawSystem(String name, List<String> uris, int needed) {
    this(name, uris, needed, Steps.PLAIN);
  }

  /** A floor that sends {@code steps}; loads the scripts it needs before it returns. */
  FloorRawSystem(String name, List<String> uris, int needed, Steps steps) {
    this.name = name;
    this.nodes = RawNodes.connect(uris, name + "-io");
    this.needed = needed;
    this.steps = steps;
    if (steps != Steps.PLAIN) {
      try {
        loadScripts();
      } catch (RuntimeException e) {
        nodes.close();
        throw e;
      }
    }
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public boolean canWait() {
    return false;
  }

  @Override
  public boolean takesPart(String scenarioId) {
    return steps == Steps.PLAIN || SCRIPTED_SCENARIOS.contains(scenarioId);
  }

  @Override
  public Held acquire(String resource, Duration maxWait) {
    long owner = ThreadLocalRandom.current().nextLong();
    ByteBuffer buffer = buffers.forKey(resource);
    long ttl = BenchTiming.LEASE_TTL.toMillis();
    decide(
        resource,
        owner,
        steps == Steps.FENCED
            ? RespCommands.acquireFenced(buffer, resource, owner, ttl, tokens.incrementAndGet())
            : RespCommands.set(buffer, resource, owner, ttl));
    return () -> release(resource, owner);
  }

  /**
   * {@code SET resource owner NX PX ttl} on every node, done at the quorum-th {@code +OK}.
   *
   * @throws NotGrantedException if that became impossible (the grants are undone with {@code DEL})
   */
  void take(String resource, long owner) {
    decide(
        resource,
        owner,
        RespCommands.set(
            buffers.forKey(resource), resource, owner, BenchTiming.LEASE_TTL.toMillis()));
  }

  /**
   * Sends {@code take} (a command that answers {@code +OK} where it took {@code resource}) to every
   * node and waits for the quorum-th {@code +OK}.
   *
   * @throws NotGrantedException if that became impossible (the grants are undone: with {@code DEL}
   *     by floor-raw, with compare-and-delete by the scripted floors, as a real lock would)
   */
  private void decide(String resource, long owner, ByteBuffer take) {
    QuorumStep step = new QuorumStep(ReplyKind.STATUS, needed, nodes.size());
    nodes.sendToAll(take, step);
    if (!step.await(BenchTiming.COMMAND_TIMEOUT.toNanos())) {
      release(resource, owner);
      String error = step.firstError();
      throw new NotGrantedException(
          name + ": " + resource + (error == null ? " is held" : ": " + error));
    }
  }

  /**
   * The release of this floor's {@link Steps}, which also undoes a refused acquire's grants: {@code
   * DEL} for floor-raw, else compare-and-delete.
   */
  private void release(String resource, long owner) {
    if (steps == Steps.PLAIN) {
      delete(resource);
    } else {
      compareAndDelete(resource, owner);
    }
  }

  /** {@code DEL resource} on every node, waiting for a quorum of replies. */
  void delete(String resource) {
    awaitQuorum(RespCommands.del(buffers.forKey(resource), resource));
  }

  /**
   * {@link RespCommands#RELEASE_SCRIPT} on every node, waiting for a quorum of replies: {@code
   * resource} deleted where {@code owner} holds it.
   */
  private void compareAndDelete(String resource, long owner) {
    awaitQuorum(RespCommands.compareAndDelete(buffers.forKey(resource), resource, owner));
  }

  private void awaitQuorum(ByteBuffer command) {
    QuorumStep step = new QuorumStep(ReplyKind.INTEGER, needed, nodes.size());
    nodes.sendToAll(command, step);
    step.await(BenchTiming.COMMAND_TIMEOUT.toNanos());
  }

  /**
   * Sends {@code SET resource to PX ttl} to every node, the replies going to {@code step}: the key
   * given to {@code to} whoever holds it.
   */
  void transfer(String resource, long to, QuorumStep step) {
    nodes.sendToAll(
        RespCommands.transfer(
            buffers.forKey(resource), resource, to, BenchTiming.LEASE_TTL.toMillis()),
        step);
  }

  /**
   * Sends {@link RespCommands#HAND_OVER_SCRIPT} to every node, the replies going to {@code step}:
   * the key given to {@code to} where {@code from} holds it. Needs {@link #loadScripts}.
   */
  void handOver(String resource, long from, long to, QuorumStep step) {
    nodes.sendToAll(
        RespCommands.handOver(
            buffers.forKey(resource), resource, from, to, BenchTiming.LEASE_TTL.toMillis()),
        step);
  }

  /**
   * Sends {@code DEL resource} to the first node (the lock's lead) only, its reply going to {@code
   * reply}; or, if {@code checksOwner}, {@link RespCommands#RELEASE_SCRIPT} (needs {@link
   * #loadScripts}): the key deleted there if {@code owner} holds it. The first step of a two-step
   * handoff, whose second step carries the release to the other nodes.
   */
  void releaseOnLead(String resource, long owner, boolean checksOwner, ReplyHandler reply) {
    ByteBuffer buffer = buffers.forKey(resource);
    nodes
        .node(0)
        .send(
            checksOwner
                ? RespCommands.compareAndDelete(buffer, resource, owner)
                : RespCommands.del(buffer, resource),
            reply);
  }

  /**
   * The fenced second step of a two-step handoff: {@link RespCommands#TAKE_SCRIPT} to every node,
   * with {@code token} and {@code predecessor}, the replies going to {@code step} (needs {@link
   * #loadScripts}). The plain one is {@link #transfer}.
   */
  void takeFenced(String resource, long owner, long token, long predecessor, QuorumStep step) {
    nodes.sendToAll(
        RespCommands.takeFenced(
            buffers.forKey(resource),
            resource,
            owner,
            BenchTiming.LEASE_TTL.toMillis(),
            token,
            predecessor),
        step);
  }

  /**
   * Puts the hand-over, release, take and acquire scripts into every node's script cache, running
   * each once on keys nobody uses.
   */
  void loadScripts() {
    String unused = "bench:unused";
    String noOwner = "0";
    load(
        RespCommands.eval(RespCommands.HAND_OVER_SCRIPT, 1, unused, noOwner, noOwner, "1"),
        ReplyKind.NIL);
    load(RespCommands.eval(RespCommands.RELEASE_SCRIPT, 1, unused, noOwner), ReplyKind.INTEGER);
    // The fenced scripts each take a key of their own (another load's must not refuse it) and
    // write token 1 to its fence counter; both keys are deleted after, rather than left to expire.
    // The take script's ARGV[4] (a predecessor nobody is) is one argument more than the acquire
    // script reads.
    for (String script : List.of(RespCommands.TAKE_SCRIPT, RespCommands.ACQUIRE_SCRIPT)) {
      String once = unused + ":" + Long.toHexString(ThreadLocalRandom.current().nextLong());
      String fence = once + RespCommands.FENCE_SUFFIX;
      load(
          RespCommands.eval(script, 2, once, fence, noOwner, "60000", "1", noOwner),
          ReplyKind.STATUS);
      for (String key : List.of(once, fence)) {
        load(
            RespCommands.del(ByteBuffer.allocate(RespCommands.capacityFor(key)), key),
            ReplyKind.INTEGER);
      }
    }
  }

  private void load(ByteBuffer eval, ReplyKind expected) {
    QuorumStep load = new QuorumStep(expected, nodes.size(), nodes.size());
    nodes.sendToAll(eval, load);
    if (!load.await(BenchTiming.COMMAND_TIMEOUT.toNanos())) {
      throw new IllegalStateException(
          name + ": a script did not load everywhere: " + load.firstError());
    }
  }

  /** How many nodes there are. */
  int nodeCount() {
    return nodes.size();
  }

  /**
   * A step over every node, decided at the quorum-th {@code +OK}, for the calling thread to wait
   * for: what {@link #transfer}, {@link #handOver} and {@link #takeFenced} report to.
   */
  QuorumStep statusStep() {
    return new QuorumStep(ReplyKind.STATUS, needed, nodes.size());
  }

  @Override
  public void close() {
    nodes.close();
  }
}
