package io.fencedlock.testkit;

import com.github.dockerjava.api.DockerClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A group of independent redis-server masters, one container each: the container-backed {@link
 * Deployment}. Same operations as {@link RedisNodes}, same binary (the image is built from it, see
 * {@link RedisImage}); in addition each node can be cut off its network ({@link
 * ContainerNode#disconnect()}).
 *
 * <pre>{@code
 * try (ContainerNodes redis = ContainerNodes.start(5, Persistence.AOF_ALWAYS)) {
 *   Redlock lock = ...(redis.uris());
 *   redis.node(0).pause();        // cgroup freezer
 *   redis.node(1).disconnect();   // network partition
 *   redis.node(2).restart(Persistence.NONE);
 * }
 * }</pre>
 *
 * <p>Every container, volume and network carries this JVM's labels; {@link #close()} removes them,
 * and so do the JVM's shutdown hook and the resource reaper (see {@link DockerEngine}) when a test
 * never gets there.
 *
 * <p>Thread-safety: thread-safe; the node list is immutable. The {@link Builder} is not.
 */
public final class ContainerNodes implements Deployment {
  private final List<ContainerNode> nodes;
  private final NodeNetwork network;
  private final AtomicBoolean closed = new AtomicBoolean();

  private ContainerNodes(List<ContainerNode> nodes, NodeNetwork network) {
    this.nodes = List.copyOf(nodes);
    this.network = network;
  }

  /**
   * Starts {@code count} nodes without persistence.
   *
   * @throws IllegalArgumentException if {@code count < 1}
   * @throws DockerUnavailableException if no Docker engine answers
   * @throws RedisStartupException if a node does not come up (nothing is left behind)
   */
  public static ContainerNodes start(int count) {
    return builder().nodes(count).start();
  }

  /**
   * Starts {@code count} nodes, all in the given persistence mode.
   *
   * @throws IllegalArgumentException if {@code count < 1} or {@code persistence} is null
   * @throws DockerUnavailableException if no Docker engine answers
   * @throws RedisStartupException if a node does not come up (nothing is left behind)
   */
  public static ContainerNodes start(int count, Persistence persistence) {
    return builder().nodes(count).persistence(persistence).start();
  }

  public static Builder builder() {
    return new Builder();
  }

  @Override
  public ContainerNode node(int index) {
    if (index < 0 || index >= nodes.size()) {
      throw new IllegalArgumentException(
          "index must be in [0, " + nodes.size() + ") but was " + index);
    }
    return nodes.get(index);
  }

  @Override
  public List<ContainerNode> nodes() {
    return nodes;
  }

  /**
   * The name of the deployment's Docker network, for other containers that are to reach the nodes
   * at their {@link ContainerNode#networkAddress()} (Testcontainers: {@code
   * withNetworkMode(name)}). A node's {@link ContainerNode#disconnect()} cuts it off from them too.
   */
  public String networkName() {
    return network.name();
  }

  /** Every node's {@link ContainerNode#networkUri()} in index order; immutable. */
  public List<String> networkUris() {
    return nodes.stream().map(ContainerNode::networkUri).toList();
  }

  /** Also reconnects disconnected nodes. */
  @Override
  public void heal() {
    nodes.forEach(ContainerNode::reconnect);
    Deployment.super.heal();
  }

  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    RuntimeException failure = null;
    for (ContainerNode node : nodes) {
      try {
        node.close();
      } catch (RuntimeException e) {
        failure = Failures.add(failure, e);
      }
    }
    try {
      network.remove();
    } catch (RuntimeException e) {
      failure = Failures.add(failure, e);
    }
    if (failure != null) {
      IllegalStateException closing =
          new IllegalStateException("closing " + nodes.size() + " container nodes failed");
      closing.addSuppressed(failure);
      throw closing;
    }
  }

  @Override
  public String toString() {
    return "ContainerNodes" + nodes;
  }

  /**
   * Configures and starts a {@link ContainerNodes}: the options of {@link RedisNodes.Builder}.
   * Every setter validates at once; setting the same thing twice is an error ({@link NodeOptions}).
   *
   * <p>Not thread-safe: use it from one thread.
   */
  public static final class Builder {
    private final NodeOptions options = new NodeOptions();

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
     * @throws IllegalArgumentException if {@code nodeIndex < 0} or {@code persistence} is null
     * @throws IllegalStateException if already set for this node
     */
    public Builder persistence(int nodeIndex, Persistence persistence) {
      options.persistence(nodeIndex, persistence);
      return this;
    }

    /**
     * An extra redis-server option for every node, as {@link RedisNodes.Builder#config}.
     *
     * @throws IllegalArgumentException if the name is null, blank, dashed or managed by the kit
     * @throws IllegalStateException if the option is already set
     */
    public Builder config(String name, String value) {
      options.config(name, value);
      return this;
    }

    /**
     * How long each node may take to answer PING after a start or restart; default {@link
     * RedisNodes#DEFAULT_START_TIMEOUT}.
     *
     * @throws IllegalArgumentException if null or not positive
     * @throws IllegalStateException if already set
     */
    public Builder startTimeout(Duration timeout) {
      options.startTimeout(timeout);
      return this;
    }

    /**
     * Builds the Redis image if needed, creates the network, volumes and containers, and returns
     * once every node answers PING. On failure nothing is left behind.
     *
     * @throws IllegalStateException if {@link #nodes(int)} was not called, or no binary is found
     * @throws IllegalArgumentException if a per-node persistence names an index {@code >= nodes}
     * @throws DockerUnavailableException if no Docker engine answers
     * @throws RedisStartupException if a node does not come up
     */
    public ContainerNodes start() {
      int nodes = options.count();
      DockerClient docker = DockerEngine.client();
      String image = RedisImage.ensure(docker, RedisBinary.locate());
      String name = "fencedlock-" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 16);
      NodeNetwork network = NodeNetwork.create(docker, name);
      try {
        return new ContainerNodes(
            ContainerLauncher.launchAll(
                docker, specs(image, name, network, nodes), options.modes()),
            network);
      } catch (RuntimeException e) {
        try {
          network.remove();
        } catch (RuntimeException cleanup) {
          e.addSuppressed(cleanup);
        }
        throw e;
      }
    }

    private List<ContainerSpec> specs(String image, String name, NodeNetwork network, int nodes) {
      List<String> extraArgs = options.extraArgs();
      List<ContainerSpec> specs = new ArrayList<>();
      for (int i = 0; i < nodes; i++) {
        specs.add(
            new ContainerSpec(
                i,
                image,
                name + "-node" + i,
                network,
                extraArgs,
                options.startTimeout(),
                Ports.JVM_WIDE));
      }
      return specs;
    }
  }
}
