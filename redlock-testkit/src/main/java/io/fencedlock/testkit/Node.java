package io.fencedlock.testkit;

import java.time.Duration;

/**
 * One Redis master of a {@link Deployment}, with the faults Redlock must survive, whatever runs it:
 * a local process ({@link RedisNode}) or a container ({@link ContainerNode}).
 *
 * <p>Lifecycle: a node starts running; {@link #kill()} leaves it restartable; {@link
 * #restart(Persistence)} brings it back on the same address, with its data only if the persistence
 * mode kept it ({@link Persistence#NONE} comes back empty, like a master that lost its memory).
 * Closing the deployment ends every node for good.
 *
 * <p>Thread-safety: implementations are thread-safe; lifecycle methods are serialized per node.
 */
public interface Node {
  /** The node's position in its deployment. */
  int index();

  /** The address clients use; fixed for the node's lifetime, also across restarts. */
  String host();

  /** The port clients use; fixed for the node's lifetime, also across restarts. */
  int port();

  /** {@code redis://<host>:<port>}, as understood by Lettuce and Redisson. */
  default String uri() {
    return "redis://" + host() + ":" + port();
  }

  /** The persistence mode of the current (or, if killed, the last) run. */
  Persistence persistence();

  /** Whether the server is alive, paused or not. */
  boolean isRunning();

  /** Whether the server is alive and frozen by {@link #pause()}. */
  boolean isPaused();

  /**
   * Kills the server with SIGKILL (also while paused) and returns once it is gone; no chance to
   * flush. No-op if it is not running. The node stays restartable.
   *
   * @throws IllegalStateException if it does not die within a bound
   */
  void kill();

  /**
   * Freezes the server and returns once it is frozen: connections are still accepted (by the kernel
   * or the engine), nothing is answered until {@link #resume()}, as in a long GC pause. No-op if
   * already paused.
   *
   * @throws IllegalStateException if the node is closed or not running
   */
  void pause();

  /** Continues a paused server. No-op if not paused. */
  void resume();

  /** Restarts in the current persistence mode; see {@link #restart(Persistence)}. */
  default void restart() {
    restart(persistence());
  }

  /**
   * Kills the server if running and starts it again on the same address in the given mode,
   * returning once it answers PING. With {@link Persistence#NONE} its data is wiped first.
   *
   * @throws IllegalArgumentException if {@code persistence} is null
   * @throws IllegalStateException if the node is closed
   * @throws RedisStartupException if the server does not come up; the node stays restartable
   */
  void restart(Persistence persistence);

  /**
   * Sends one command over a fresh connection and returns the decoded RESP2 reply: String, Long,
   * {@code List<Object>}, or null for nil.
   *
   * @throws IllegalArgumentException if timeout or args are null/empty or not positive
   * @throws RedisReplyException if redis answers with an error
   * @throws java.io.UncheckedIOException if the connection fails or times out (down, paused)
   */
  Object command(Duration timeout, String... args);

  /** {@link #command(Duration, String...)} with {@link RedisNode#DEFAULT_COMMAND_TIMEOUT}. */
  default Object command(String... args) {
    return command(RedisNode.DEFAULT_COMMAND_TIMEOUT, args);
  }
}
