package io.fencedlock.chaos.nemesis;

import io.fencedlock.redlock.spi.NodeKeys;
import io.fencedlock.testkit.RedisNode;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A node's monotonic counters as the lock's scripts leave them: every fence counter ({@code <lock
 * key>:fence}) and the node's high-water mark. Read to show what a power loss rolled back.
 * Stateless.
 */
final class NodeCounters {
  /** The fence counters and the high-water mark, as a flat list of names and values. */
  private static final String READ_SCRIPT =
      "local out = {}\n"
          + "for _, k in ipairs(redis.call('KEYS', '*:fence')) do\n"
          + "  out[#out + 1] = k\n"
          + "  out[#out + 1] = redis.call('GET', k)\n"
          + "end\n"
          + "local mark = redis.call('GET', KEYS[1])\n"
          + "if mark then\n"
          + "  out[#out + 1] = KEYS[1]\n"
          + "  out[#out + 1] = mark\n"
          + "end\n"
          + "return out\n";

  private static final Duration READ_TIMEOUT = Duration.ofSeconds(2);

  private NodeCounters() {}

  /**
   * The node's counters by key, or empty if the node could not be read (a paused or dead node: the
   * power loss goes on, its effect says the counters are unknown).
   */
  static Optional<Map<String, Long>> read(RedisNode node) {
    try {
      Object reply = node.command(READ_TIMEOUT, "EVAL", READ_SCRIPT, "1", NodeKeys.HIGH_WATER);
      List<?> flat = (List<?>) reply;
      Map<String, Long> counters = new TreeMap<>();
      for (int i = 0; i + 1 < flat.size(); i += 2) {
        counters.put((String) flat.get(i), Long.parseLong((String) flat.get(i + 1)));
      }
      return Optional.of(counters);
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  /**
   * The counters that are lower after than before (a missing one counts as 0), as the effect's
   * words: {@code ", 2 of 4 counters rolled back ({r}:fence 57→52, …)"}; the counters that grew or
   * stayed are not named.
   */
  static String rollbacks(Optional<Map<String, Long>> before, Optional<Map<String, Long>> after) {
    if (before.isEmpty() || after.isEmpty()) {
      return ", counters unknown (a node did not answer)";
    }
    StringBuilder back = new StringBuilder();
    int count = 0;
    for (Map.Entry<String, Long> e : before.get().entrySet()) {
      long now = after.get().getOrDefault(e.getKey(), 0L);
      if (now < e.getValue()) {
        back.append(count == 0 ? " (" : ", ")
            .append(e.getKey())
            .append(' ')
            .append(e.getValue())
            .append("→")
            .append(now);
        count++;
      }
    }
    return ", "
        + count
        + " of "
        + before.get().size()
        + " counters rolled back"
        + (count == 0 ? "" : back + ")");
  }

  /** Whether the restarted node still has the init marker (so it is not excluded as wiped). */
  static String marker(RedisNode node) {
    try {
      return node.command(READ_TIMEOUT, "EXISTS", NodeKeys.MARKER).equals(1L)
          ? ", marker kept"
          : ", marker lost";
    } catch (RuntimeException e) {
      return ", marker unknown";
    }
  }
}
