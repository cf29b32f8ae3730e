package io.fencedlock.bench;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The real floor of a quorum lock on this machine: the least a JVM client can spend on {@code SET
 * key owner NX PX ttl} to every node, done at the quorum-th {@code +OK}, then {@code DEL key} to
 * every node, done at the quorum-th reply. No client library: RESP by hand ({@link RespCommands},
 * {@link RespReplyParser}), one non-blocking connection per node, one I/O thread that only reads
 * ({@link RawNodes}), and the caller writes its command to the five sockets itself, then parks
 * until the deciding reply unparks it ({@link QuorumStep}). Like {@link FloorSystem}, not a real
 * lock: DEL is not compare-and-delete, and a refused SET is not retried; a refused one is undone
 * with DEL on every node (sent on the same connections after the SETs, so it runs after them
 * everywhere). Thread-safe; many callers pipeline their commands on the same connections.
 */
final class FloorRawSystem implements LockSystem {
  private static final int INITIAL_BUFFER = 256;

  private final String name;
  private final RawNodes nodes;
  private final int needed;

  /** Each caller encodes into its own direct buffer: no copy into a temporary one on write. */
  private final ThreadLocal<ByteBuffer> buffers =
      ThreadLocal.withInitial(() -> ByteBuffer.allocateDirect(INITIAL_BUFFER));

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
    long owner = ThreadLocalRandom.current().nextLong();
    ByteBuffer command =
        RespCommands.set(buffer(resource), resource, owner, BenchTiming.LEASE_TTL.toMillis());
    QuorumStep set = new QuorumStep(ReplyKind.STATUS, needed, nodes.size());
    nodes.sendToAll(command, set);
    if (!set.await(BenchTiming.COMMAND_TIMEOUT.toNanos())) {
      delete(resource); // undo partial grants, as a real lock would
      String error = set.firstError();
      throw new NotGrantedException(
          name + ": " + resource + (error == null ? " is held" : ": " + error));
    }
    return () -> delete(resource);
  }

  private void delete(String resource) {
    QuorumStep del = new QuorumStep(ReplyKind.INTEGER, needed, nodes.size());
    nodes.sendToAll(RespCommands.del(buffer(resource), resource), del);
    del.await(BenchTiming.COMMAND_TIMEOUT.toNanos());
  }

  private ByteBuffer buffer(String resource) {
    ByteBuffer buffer = buffers.get();
    int capacity = RespCommands.capacityFor(resource);
    if (buffer.capacity() < capacity) {
      buffer = ByteBuffer.allocateDirect(capacity);
      buffers.set(buffer);
    }
    return buffer;
  }

  @Override
  public void close() {
    nodes.close();
  }
}
