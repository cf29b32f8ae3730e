package io.fencedlock.bench;

import io.fencedlock.testkit.RedisNode;
import io.fencedlock.testkit.RedisNodes;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The CPU time the Redis server processes have used so far: the sum over their pids of utime +
 * stime from {@code /proc/<pid>/stat} (fields 14 and 15, in clock ticks). The servers share the
 * machine's cores with the client, so what they spend per operation is part of any throughput gap
 * between systems, and the JVM cannot see it.
 *
 * <p>Java cannot call {@code sysconf(_SC_CLK_TCK)}, so the tick length is read once from {@code
 * getconf CLK_TCK}; if that fails, 100 Hz (10 ms) is assumed, the value on every Linux architecture
 * this runs on. The kernel reports each process's time rounded to a tick, so a stretch's figure is
 * off by up to a tick per server either way; over many stretches these errors mostly cancel.
 */
final class ServerCpu {
  /** No servers known (a test, or not Linux): every reading is -1. */
  static final ServerCpu NONE = new ServerCpu(new long[0], Path.of("/proc"), 0);

  /** The tick length when {@code getconf CLK_TCK} cannot be read: 100 Hz. */
  static final long DEFAULT_NANOS_PER_TICK = 10_000_000;

  private final long[] pids;
  private final Path proc;
  private final long nanosPerTick;

  ServerCpu(long[] pids, Path proc, long nanosPerTick) {
    this.pids = pids.clone();
    this.proc = proc;
    this.nanosPerTick = nanosPerTick;
  }

  /** The processes of {@code redis}' nodes, as they run now (a restarted node is not followed). */
  static ServerCpu of(RedisNodes redis) {
    return new ServerCpu(
        redis.nodes().stream().mapToLong(RedisNode::pid).toArray(),
        Path.of("/proc"),
        nanosPerTick());
  }

  /** CPU time in ns the servers have used since they started; -1 if any of them cannot be read. */
  long nanos() {
    if (pids.length == 0) {
      return -1;
    }
    long ticks = 0;
    for (long pid : pids) {
      try {
        long own = ticks(Files.readString(proc.resolve(Long.toString(pid)).resolve("stat")));
        if (own < 0) {
          return -1;
        }
        ticks += own;
      } catch (IOException | RuntimeException e) {
        return -1; // no /proc (not Linux), or the process is gone: unknown, like the JVM's -1
      }
    }
    return ticks * nanosPerTick;
  }

  /**
   * utime + stime of one {@code /proc/<pid>/stat} line, in ticks; -1 if it cannot be parsed. The
   * second field is the process name in parentheses, which may itself hold spaces and parentheses
   * ({@code (redis-server *:6379)}), so the fields are counted after the last ')'.
   */
  static long ticks(String statLine) {
    int close = statLine.lastIndexOf(')');
    if (close < 0) {
      return -1;
    }
    // After the name: field 3 (state) is the first, so utime (14) and stime (15) are the 12th
    // and 13th.
    String[] fields = statLine.substring(close + 1).trim().split("\\s+");
    if (fields.length < 13) {
      return -1;
    }
    try {
      return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /** The kernel's clock tick in ns, from {@code getconf CLK_TCK}; 10 ms if that cannot be run. */
  static long nanosPerTick() {
    try {
      Process p = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
      String out;
      try (InputStream in = p.getInputStream()) {
        out = new String(in.readAllBytes(), StandardCharsets.US_ASCII).trim();
      }
      if (!p.waitFor(5, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return DEFAULT_NANOS_PER_TICK;
      }
      long hz = Long.parseLong(out);
      return p.exitValue() == 0 && hz > 0 ? 1_000_000_000L / hz : DEFAULT_NANOS_PER_TICK;
    } catch (IOException | NumberFormatException e) {
      return DEFAULT_NANOS_PER_TICK;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return DEFAULT_NANOS_PER_TICK;
    }
  }
}
