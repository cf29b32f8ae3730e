package io.fencedlock.testkit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The options both deployment builders take ({@link RedisNodes.Builder}, {@link
 * ContainerNodes.Builder}), validated once for both: every setter checks its argument at once, and
 * setting the same thing twice is an error, since it is almost always a copy-paste mistake.
 *
 * <p>Not thread-safe: owned by one builder.
 */
final class NodeOptions {
  private int nodes;
  private Persistence persistence;
  private final Map<Integer, Persistence> perNode = new HashMap<>();
  private final Map<String, String> config = new LinkedHashMap<>();
  private final Map<Integer, Map<String, String>> environment = new HashMap<>();
  private Duration startTimeout;

  void nodes(int count) {
    if (count < 1) {
      throw new IllegalArgumentException("count must be at least 1 but was " + count);
    }
    requireUnset(nodes == 0, "nodes", nodes);
    nodes = count;
  }

  void persistence(Persistence persistence) {
    Checks.notNull(persistence, "persistence");
    requireUnset(this.persistence == null, "persistence", this.persistence);
    this.persistence = persistence;
  }

  void persistence(int nodeIndex, Persistence persistence) {
    if (nodeIndex < 0) {
      throw new IllegalArgumentException("nodeIndex must not be negative but was " + nodeIndex);
    }
    Checks.notNull(persistence, "persistence");
    Persistence previous = perNode.get(nodeIndex);
    requireUnset(previous == null, "persistence of node " + nodeIndex, previous);
    perNode.put(nodeIndex, persistence);
  }

  void config(String name, String value) {
    ExtraOptions.validate(name, value);
    requireUnset(!config.containsKey(name), "config " + name, config.get(name));
    config.put(name, value);
  }

  void environment(int nodeIndex, String name, String value) {
    if (nodeIndex < 0) {
      throw new IllegalArgumentException("nodeIndex must not be negative but was " + nodeIndex);
    }
    Checks.notNull(name, "name");
    Checks.notNull(value, "value");
    if (name.isBlank() || name.contains("=")) {
      throw new IllegalArgumentException("name must be a variable name but was \"" + name + "\"");
    }
    Map<String, String> env = environment.computeIfAbsent(nodeIndex, i -> new LinkedHashMap<>());
    requireUnset(
        !env.containsKey(name), "environment " + name + " of node " + nodeIndex, env.get(name));
    env.put(name, value);
  }

  /** The extra environment of node {@code nodeIndex}; empty when none was set. */
  Map<String, String> environment(int nodeIndex) {
    return Map.copyOf(environment.getOrDefault(nodeIndex, Map.of()));
  }

  void startTimeout(Duration timeout) {
    Checks.notNull(timeout, "timeout");
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("timeout must be positive but was " + timeout);
    }
    requireUnset(startTimeout == null, "startTimeout", startTimeout);
    startTimeout = timeout;
  }

  /**
   * The node count, once the options are complete.
   *
   * @throws IllegalStateException if the count was not set
   * @throws IllegalArgumentException if a per-node persistence names an index beyond it
   */
  int count() {
    if (nodes == 0) {
      throw new IllegalStateException("nodes(int) must be called before start()");
    }
    java.util.stream.Stream.concat(perNode.keySet().stream(), environment.keySet().stream())
        .filter(i -> i >= nodes)
        .findFirst()
        .ifPresent(
            i -> {
              throw new IllegalArgumentException(
                  "nodeIndex "
                      + i
                      + " of persistence(nodeIndex, ...) or environment(nodeIndex, ...) is out of"
                      + " range for "
                      + nodes
                      + " nodes");
            });
    return nodes;
  }

  /** Each node's persistence mode, in index order: its own, else the common one, else NONE. */
  List<Persistence> modes() {
    Persistence fallback = persistence == null ? Persistence.NONE : persistence;
    List<Persistence> modes = new ArrayList<>();
    for (int i = 0; i < nodes; i++) {
      modes.add(perNode.getOrDefault(i, fallback));
    }
    return modes;
  }

  /** The extra redis-server arguments, {@code --name value} in insertion order. */
  List<String> extraArgs() {
    return ExtraOptions.toArgs(config);
  }

  Duration startTimeout() {
    return startTimeout == null ? RedisNodes.DEFAULT_START_TIMEOUT : startTimeout;
  }

  private static void requireUnset(boolean unset, String what, Object current) {
    if (!unset) {
      throw new IllegalStateException(what + " was already set to " + current);
    }
  }
}
