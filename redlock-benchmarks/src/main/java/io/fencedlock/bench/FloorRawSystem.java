package io.fencedlock.bench;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The real floor of a quorum lock on this machine: the least a JVM client can spend on {@code SET
 * key owner NX PX ttl} to every node, done at the quorum-th {@code +OK}, then {@code DEL key} to
 * every node, done at the quorum-th reply. No client library: RESP by hand ({@link RespCommands},
 * {@link RespReplyParser}), one non-blocking connection per node, one I/O thread that reads ({@link
 * RawNodes}), and the caller writes its command to the five sockets itself, then parks until the
 * deciding reply unparks it ({@link QuorumStep}). Like {@link FloorSystem}, not a real lock: DEL is
 * not compare-and-delete, and a refused SET is not retried; a refused one is undone with DEL on
 * every node (sent on the same connections after the SETs, so it runs after them everywhere).
 * Thread-safe; many callers pipeline their commands on the same connections.
 */
final class FloorRawSystem implements LockSystem {
  private final String name;
  private final RawNodes nodes;
  private final int needed;

  private final CommandBuffers buffers = new CommandBuffers();

  FloorRawSystem(String name, List<String> uris, int needed) {
    this.name = name;
    this.nodes = RawNodes.connect(uris, name + "-io");
    this.needed = needed;
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
  public Held acquire(String resource, Duration maxWait) {
    take(resource, ThreadLocalRandom.current().nextLong());
    return () -> delete(resource);
  }

  /**
   * {@code SET resource owner NX PX ttl} on every node, done at the quorum-th {@code +OK}.
   *
   * @throws NotGrantedException if that became impossible (the grants are undone with {@code DEL})
   */
  void take(String resource, long owner) {
    ByteBuffer command =
        RespCommands.set(
            buffers.forKey(resource), resource, owner, BenchTiming.LEASE_TTL.toMillis());
    QuorumStep set = new QuorumStep(ReplyKind.STATUS, needed, nodes.size());
    nodes.sendToAll(command, set);
    if (!set.await(BenchTiming.COMMAND_TIMEOUT.toNanos())) {
      delete(resource); // undo partial grants, as a real lock would
      String error = set.firstError();
      throw new NotGrantedException(
          name + ": " + resource + (error == null ? " is held" : ": " + error));
    }
  }

  /** {@code DEL resource} on every node, waiting for a quorum of replies. */
  void delete(String resource) {
    QuorumStep del = new QuorumStep(ReplyKind.INTEGER, needed, nodes.size());
    nodes.sendToAll(RespCommands.del(buffers.forKey(resource), resource), del);
    del.await(BenchTiming.COMMAND_TIMEOUT.toNanos());
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
   * Puts the hand-over, release and take scripts into every node's script cache, running each once
   * on keys nobody uses.
   */
  void loadScripts() {
    String unused = "bench:unused";
    String noOwner = "0";
    load(
        RespCommands.eval(RespCommands.HAND_OVER_SCRIPT, 1, unused, noOwner, noOwner, "1"),
        ReplyKind.NIL);
    load(RespCommands.eval(RespCommands.RELEASE_SCRIPT, 1, unused, noOwner), ReplyKind.INTEGER);
    // Takes a key of its own for a millisecond (another load's must not refuse it); a token of 0
    // writes no fence counter.
    String once = unused + ":" + Long.toHexString(ThreadLocalRandom.current().nextLong());
    load(
        RespCommands.eval(
            RespCommands.TAKE_SCRIPT,
            2,
            once,
            once + RespCommands.FENCE_SUFFIX,
            noOwner,
            "1",
            "0",
            noOwner),
        ReplyKind.STATUS);
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
