package io.fencedlock.testkit;

/**
 * What runs the Redis nodes of a {@link Deployment}. The two backends run the same redis-server
 * binary ({@link RedisBinary#locate()}), so results on one are comparable with the other; they
 * differ in how faults act (see docs/analysis.md, "The container backend").
 *
 * <p>Thread-safety: immutable enum constants.
 */
public enum Backend {
  /** redis-server child processes on loopback ports; pause is SIGSTOP. */
  PROCESS {
    @Override
    public Deployment start(int nodes, Persistence persistence) {
      return RedisNodes.start(nodes, persistence);
    }
  },
  /** One container per node, ports published on loopback; pause is the cgroup freezer. */
  CONTAINER {
    @Override
    public Deployment start(int nodes, Persistence persistence) {
      return ContainerNodes.start(nodes, persistence);
    }
  };

  /**
   * Starts {@code nodes} nodes in {@code persistence} and returns once every one answers PING.
   *
   * @throws IllegalArgumentException if {@code nodes < 1} or {@code persistence} is null
   * @throws RedisStartupException if a node does not come up (none is left running)
   * @throws DockerUnavailableException for {@link #CONTAINER} if no Docker engine answers
   */
  public abstract Deployment start(int nodes, Persistence persistence);
}
