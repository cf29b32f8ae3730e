package io.fencedlock.redlock;

import io.fencedlock.redlock.spi.NodeFailures;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/** Turns a node call's result or failure into a {@link NodeReply}. Thread-safe. */
final class Replies {
  private final Duration nodeTimeout;

  Replies(Duration nodeTimeout) {
    this.nodeTimeout = nodeTimeout;
  }

  /** The returned future never completes exceptionally. */
  <T> CompletableFuture<NodeReply> classify(
      int node, CompletableFuture<T> call, Function<T, NodeReply> onValue) {
    return call.handle(
        (value, failure) -> {
          if (failure != null) {
            return failed(node, Futures.unwrap(failure));
          }
          try {
            return onValue.apply(value);
          } catch (RuntimeException garbled) {
            return new NodeReply(
                node, NodeStatus.ERROR, 0, "unexpected reply " + value + ": " + garbled, garbled);
          }
        });
  }

  private NodeReply failed(int node, Throwable cause) {
    if (cause instanceof TimeoutException) {
      return new NodeReply(
          node,
          NodeStatus.TIMED_OUT,
          0,
          "no reply within " + nodeTimeout.toMillis() + " ms",
          cause);
    }
    return new NodeReply(node, NodeStatus.ERROR, 0, NodeFailures.describe(cause), cause);
  }
}
