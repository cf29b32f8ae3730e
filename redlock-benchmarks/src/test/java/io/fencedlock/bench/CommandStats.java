package io.fencedlock.bench;

import io.fencedlock.testkit.RedisNode;

/** What a node's {@code INFO commandstats} counted, for tests that check which commands ran. */
final class CommandStats {
  private CommandStats() {}

  /** The calls of {@code command} (lower case) that {@code node} counted since its last reset. */
  static long calls(RedisNode node, String command) {
    String stats = String.valueOf(node.command("INFO", "commandstats"));
    String field = "cmdstat_" + command + ":calls=";
    int at = stats.indexOf(field);
    if (at < 0) {
      return 0;
    }
    int from = at + field.length();
    return Long.parseLong(stats.substring(from, stats.indexOf(',', from)));
  }
}
