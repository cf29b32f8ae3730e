package io.fencedlock.testkit;

import java.util.List;

/**
 * How a {@link RedisNode} persists its data, which decides what survives a {@link
 * RedisNode#restart() restart}.
 *
 * <p>RDB snapshots are always disabled ({@code --save ""}) so that a {@link #NONE} node really
 * comes back empty and AOF nodes are governed by the AOF alone.
 *
 * <p>Thread-safety: immutable enum constants, safe to share.
 */
public enum Persistence {
  /** No persistence ({@code --appendonly no}); a restart wipes the data dir: a memory loss. */
  NONE(List.of("--appendonly", "no")),
  /** Append-only file fsynced once a second; survives kill -9 of the process (not of the host). */
  AOF_EVERYSEC(List.of("--appendonly", "yes", "--appendfsync", "everysec")),
  /** Append-only file fsynced on every write. */
  AOF_ALWAYS(List.of("--appendonly", "yes", "--appendfsync", "always"));

  private final List<String> redisArgs;

  Persistence(List<String> redisArgs) {
    this.redisArgs = redisArgs;
  }

  /** The redis-server command-line arguments selecting this mode. */
  List<String> redisArgs() {
    return redisArgs;
  }
}
