package io.fencedlock.testkit;

import java.util.List;

/**
 * N independent Redis masters, the nodes of a Redlock, on one backend: local processes ({@link
 * RedisNodes}) or containers ({@link ContainerNodes}). Tests and harnesses written against this
 * interface choose the backend with {@link Backend}.
 *
 * <p>Thread-safety: implementations are thread-safe; the node list is immutable.
 */
public interface Deployment extends AutoCloseable {
  /**
   * @throws IllegalArgumentException if {@code index} is not in {@code [0, size())}
   */
  Node node(int index);

  /** All nodes in index order; immutable. */
  List<? extends Node> nodes();

  /** Every node's {@link Node#uri()} in index order; immutable. */
  default List<String> uris() {
    return nodes().stream().map(Node::uri).toList();
  }

  default int size() {
    return nodes().size();
  }

  /**
   * Undoes every node fault: resumes paused nodes and restarts killed ones (in their last
   * persistence mode), so that the next test starts with all nodes answering.
   */
  default void heal() {
    for (Node node : nodes()) {
      if (node.isPaused()) {
        node.resume();
      }
      if (!node.isRunning()) {
        node.restart();
      }
    }
  }

  /**
   * Ends every node and removes what the deployment created (processes, data, containers, volumes,
   * networks). Idempotent; every node is attempted even if some fail.
   *
   * @throws IllegalStateException if any cleanup failed; each failure is attached as suppressed
   */
  @Override
  void close();
}
