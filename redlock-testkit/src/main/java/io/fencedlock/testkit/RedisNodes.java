package io.fencedlock.testkit;

import io.fencedlock.testkit.support.TempDirs;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A group of independent redis-server masters on free loopback ports: the N nodes of a Redlock.
 *
 * <p>Usage, one group per test class or per test:
 *
 * <pre>{@code
 * try (RedisNodes redis = RedisNodes.start(5)) {
 *   Redlock lock = ...(redis.uris());
 *   redis.node(0).kill();
 *   redis.node(1).pause();
 *   ...
 * }
 * }</pre>
 *
 * <p>Each node has its own temp data dir below one root dir; {@link #close()} kills every process
 * and deletes the root. Processes and dirs are also registered JVM-wide and removed by a shutdown
 * hook, so a test that never reaches {@code close()} does not leak servers.
 *
 * <p>Thread-safety: thread-safe. The node list is immutable; see {@link RedisNode} for the nodes.
 * The {@link Builder} is not thread-safe.
 */
public final class RedisNodes implements Deployment, Iterable<RedisNode> {
  /** How long a node may take from spawn to answering PING. */
  public static final Duration DEFAULT_START_TIMEOUT = Duration.ofSeconds(10);

  private final List<RedisNode> nodes;
  private final Path rootDir;
  private final AtomicBoolean closed = new AtomicBoolean();

  private RedisNodes(List<RedisNode> nodes, Path rootDir) {
    this.nodes = List.copyOf(nodes);
    this.rootDir = rootDir;
  }

  /**
   * Starts {@code count} nodes without persistence.
   *
   * @throws IllegalArgumentException if {@code count < 1}
   * @throws RedisStartupException if a node does not come up (none is left running)
   * @throws IllegalStateException if no redis-server binary can be found
   */
  public static RedisNodes start(int count) {
    return builder().nodes(count).start();
  }

  /**
   * Starts {@code count} nodes, all in the given persistence mode.
   *
   * @throws IllegalArgumentException if {@code count < 1} or {@code persistence} is null
   * @throws RedisStartupException if a node does not come up (none is left running)
   */
  public static RedisNodes start(int count, Persistence persistence) {
    return builder().nodes(count).persistence(persistence).start();
  }

  /** A builder for per-node persistence and extra redis-server options. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * @throws IllegalArgumentException if {@code index} is not in {@code [0, size())}
   */
  public RedisNode node(int index) {
    if (index < 0 || index >= nodes.size()) {
      throw new IllegalArgumentException(
          "index must be in [0, " + nodes.size() + ") but was " + index);
    }
    return nodes.get(index);
  }

  /** All nodes in index order; immutable. */
  public List<RedisNode> nodes() {
    return nodes;
  }

  /** {@code redis://127.0.0.1:<port>} of every node in index order; immutable. */
  public List<String> uris() {
    return nodes.stream().map(RedisNode::uri).toList();
  }

  public int size() {
    return nodes.size();
  }

  @Override
  public Iterator<RedisNode> iterator() {
    return nodes.iterator();
  }

  /**
   * Closes every node (kill and delete its data dir) and deletes the root dir. Idempotent. All
   * nodes are attempted even if some fail.
   *
   * @throws IllegalStateException if any cleanup failed; each failure is attached as suppressed
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    List<RuntimeException> failures = new ArrayList<>();
    for (RedisNode node : nodes) {
      try {
        node.close();
      } catch (RuntimeException e) {
        failures.add(e);
      }
    }
    try {
      TempDirs.deleteRecursively(rootDir);
      ProcessRegistry.deregisterDir(rootDir);
    } catch (RuntimeException e) {
      failures.add(e);
    }
    if (!failures.isEmpty()) {
      IllegalStateException failure =
          new IllegalStateException(
              "closing " + nodes.size() + " redis nodes failed " + failures.size() + " time(s)");
      failures.forEach(failure::addSuppressed);
      throw failure;
    }
  }

  @Override
  public String toString() {
    return "RedisNodes" + nodes;
  }

  /**
   * Configures and starts a {@link RedisNodes}. Every setter validates at once; setting the same
   * thing twice is an error, since it is almost always a copy-paste mistake ({@link NodeOptions}).
   *
   * <p>Not thread-safe: use it from one thread.
   */
  public static final class Builder {
    private final NodeOptions options = new NodeOptions();
    private PortSource ports = Ports.JVM_WIDE;

    private Builder() {}

    /**
     * The number of nodes (required).
     *
     * @throws IllegalArgumentException if {@code count < 1}
     * @throws IllegalStateException if already set
     */
    public Builder nodes(int count) {
      options.nodes(count);
      return this;
    }

    /**
     * The persistence mode of every node without a per-node mode; default {@link Persistence#NONE}.
     *
     * @throws IllegalArgumentException if {@code persistence} is null
     * @throws IllegalStateException if already set
     */
    public Builder persistence(Persistence persistence) {
      options.persistence(persistence);
      return this;
    }

    /**
     * The persistence mode of one node, overriding {@link #persistence(Persistence)}.
     *
     * @throws IllegalArgumentException if {@code nodeIndex < 0} or {@code persistence} is null; an
     *     index beyond the node count is reported by {@link #start()}
     * @throws IllegalStateException if already set for this node
     */
    public Builder persistence(int nodeIndex, Persistence persistence) {
      options.persistence(nodeIndex, persistence);
      return this;
    }

    /**
     * An extra redis-server option for every node, e.g. {@code config("maxmemory", "64mb")}, passed
     * as {@code --name value}. Options the fixture manages (port, dir, save, appendonly, ...) are
     * rejected; use the dedicated methods.
     *
     * @throws IllegalArgumentException if name or value is null, the name is blank, starts with '-'
     *     or is managed by the fixture
     * @throws IllegalStateException if the option is already set
     */
    public Builder config(String name, String value) {
      options.config(name, value);
      return this;
    }

    /**
     * How long each node may take to answer PING after a start or restart; default {@link
     * #DEFAULT_START_TIMEOUT}.
     *
     * @throws IllegalArgumentException if null or not positive
     * @throws IllegalStateException if already set
     */
    public Builder startTimeout(Duration timeout) {
      options.startTimeout(timeout);
      return this;
    }

    /**
     * A variable added to one node's environment at every start, e.g. {@code LD_PRELOAD} and {@code
     * FAKETIME_TIMESTAMP_FILE} to run it under libfaketime, whose clock a test then moves.
     *
     * @throws IllegalArgumentException if {@code nodeIndex < 0}, name or value is null, or the name
     *     is blank or contains '='; an index beyond the node count is reported by {@link #start()}
     * @throws IllegalStateException if the variable is already set for this node
     */
    public Builder environment(int nodeIndex, String name, String value) {
      options.environment(nodeIndex, name, value);
      return this;
    }

    /** Test seam: where ports come from. */
    Builder ports(PortSource ports) {
      this.ports = Checks.notNull(ports, "ports");
      return this;
    }

    /**
     * Starts all nodes in parallel and returns once every one answers PING.
     *
     * @throws IllegalStateException if {@link #nodes(int)} was not called, or no binary is found
     * @throws IllegalArgumentException if a per-node persistence names an index {@code >= nodes}
     * @throws RedisStartupException if a node does not come up (none is left running)
     */
    public RedisNodes start() {
      int nodes = options.count();
      RedisBinary binary = RedisBinary.locate();
      Path root = NodeDirs.createRoot();
      ProcessRegistry.registerDir(root);
      try {
        return new RedisNodes(
            NodeLauncher.launchAll(specs(binary, root, nodes), options.modes()), root);
      } catch (RuntimeException e) {
        try {
          TempDirs.deleteRecursively(root);
          ProcessRegistry.deregisterDir(root);
        } catch (RuntimeException cleanup) {
          e.addSuppressed(cleanup);
        }
        throw e;
      }
    }

    private List<NodeSpec> specs(RedisBinary binary, Path root, int nodes) {
      List<String> extraArgs = options.extraArgs();
      Duration timeout = options.startTimeout();
      List<NodeSpec> specs = new ArrayList<>();
      for (int i = 0; i < nodes; i++) {
        Path dataDir = NodeDirs.createChild(root, "node-" + i);
        specs.add(
            new NodeSpec(i, binary, dataDir, extraArgs, timeout, ports, options.environment(i)));
      }
      return specs;
    }
  }
}
