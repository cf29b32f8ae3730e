package io.fencedlock.chaos.nemesis;

import io.fencedlock.testkit.Persistence;
import io.fencedlock.testkit.RedisNode;
import io.fencedlock.testkit.RedisNodes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Power loss of nodes that run {@code appendfsync everysec}. Killing such a process loses nothing
 * (what it wrote is in the kernel's page cache); a power loss loses what was written since the last
 * fsync. So this applier notes each node's append-only file size once a second, as the fsync thread
 * would make it durable, and a power loss kills the node, cuts its file back to the size noted
 * last, and restarts it (Redis loads a cut file: {@code aof-load-truncated yes}). The marker,
 * written long before, survives; the last second of counters, high-water marks and locks does not.
 *
 * <p>To show that mechanism in each run rather than assume it, the applier reads the node's
 * monotonic counters (every fence counter and the high-water mark) just before the kill and again
 * after the restart, and its effect names each counter that went back and whether the init marker
 * survived. Counters can only grow between the read and the kill, so a counter found lower after
 * the restart really rolled back. Processes only. Thread-safe.
 */
public final class PowerLossFaults implements FaultApplier {
  static final String AOF = "appendonly.aof";
  static final long FSYNC_MILLIS = 1000;

  private final RedisNodes nodes;
  private final AtomicLongArray synced;
  private final ScheduledExecutorService fsync =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "emulated-fsync");
            t.setDaemon(true);
            return t;
          });

  public PowerLossFaults(RedisNodes nodes) {
    this(nodes, FSYNC_MILLIS);
  }

  /** With the emulated fsync every {@code fsyncMillis}; the first one happens here. */
  PowerLossFaults(RedisNodes nodes, long fsyncMillis) {
    this.nodes = nodes;
    this.synced = new AtomicLongArray(nodes.size());
    tick();
    fsync.scheduleAtFixedRate(this::tick, fsyncMillis, fsyncMillis, TimeUnit.MILLISECONDS);
  }

  /** One emulated fsync: what each node's file holds now survives a power loss. */
  void tick() {
    for (RedisNode node : nodes) {
      synced.set(node.index(), size(aof(node)));
    }
  }

  private static Path aof(RedisNode node) {
    return node.dataDir().resolve(AOF);
  }

  private static long size(Path file) {
    try {
      return Files.exists(file) ? Files.size(file) : 0;
    } catch (IOException e) {
      return 0; // being replaced by a rewrite: nothing known to be synced yet
    }
  }

  @Override
  public boolean handles(Fault fault) {
    return fault instanceof Fault.PowerLoss;
  }

  @Override
  public String apply(int id, Fault fault) {
    List<String> lost = new ArrayList<>();
    for (int n : ((Fault.PowerLoss) fault).nodes()) {
      RedisNode node = nodes.node(n);
      // The counters first: reading a slow node may take a while, and an emulated fsync in that
      // time must count (read the other way round, the cut would take more than everysec loses).
      Optional<Map<String, Long>> before = NodeCounters.read(node);
      long keep = synced.get(n);
      node.kill();
      Path file = aof(node);
      long size = size(file);
      if (keep < size) {
        truncate(file, keep);
      }
      node.restart(Persistence.AOF_EVERYSEC);
      lost.add(
          "n"
              + n
              + " lost "
              + Math.max(0, size - keep)
              + " bytes"
              + NodeCounters.rollbacks(before, NodeCounters.read(node))
              + NodeCounters.marker(node));
    }
    return String.join(", ", lost);
  }

  private static void truncate(Path file, long size) {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ch.truncate(size);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot cut " + file + " to " + size + " bytes", e);
    }
  }

  @Override
  public void heal(int id, Fault fault) {
    // Instantaneous: the node is back already, without what it lost.
  }

  @Override
  public void healAll() {
    // Node restarts are NodeFaults' final heal; nothing of this applier's own to undo.
  }

  /** Stops the fsync emulation. */
  public void close() {
    fsync.shutdownNow();
  }
}
