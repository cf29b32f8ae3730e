package io.fencedlock.redlock.internal;

import io.fencedlock.redlock.NodeStatus;
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
          node, NodeStatus.TIMED_OUT, 0, "no reply within " + nodeTimeout.toMillis() + " ms", cause);
    }
    return new NodeReply(node, NodeStatus.ERROR, 0, describe(cause), cause);
  }

  /** The message of a failure and of its causes, so "unable to connect" says why. */
  static String describe(Throwable failure) {
    StringBuilder text = new StringBuilder();
    for (Throwable t = failure; t != null && text.length() < 500; t = t.getCause()) {
      String message = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
      if (text.indexOf(message) < 0) {
        text.append(text.length() == 0 ? "" : ": ").append(message);
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return text.toString();
  }
}
