package io.fencedlock.redlock.lettuce;

import io.fencedlock.redlock.driver.AnyNode;
import io.fencedlock.redlock.spi.ReleaseFeed;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;

/**
 * Release announcements over one lazily opened pub/sub connection per node (Lettuce resubscribes it
 * after a reconnect). Thread-safe.
 */
final class LettuceReleaseFeed implements ReleaseFeed {

  private final List<NodeClient> nodes;

  /** Per node, the pub/sub connection once asked for; guarded by {@code this}. */
  private final List<CompletableFuture<StatefulRedisPubSubConnection<String, String>>> connections;

  private volatile BiConsumer<String, String> listener = (channel, owner) -> {};

  LettuceReleaseFeed(List<NodeClient> nodes) {
    this.nodes = nodes;
    this.connections = new ArrayList<>();
    for (int i = 0; i < nodes.size(); i++) {
      connections.add(null);
    }
  }

  @Override
  public void listen(BiConsumer<String, String> onRelease) {
    this.listener = Objects.requireNonNull(onRelease, "onRelease");
  }

  @Override
  public CompletableFuture<Void> subscribe(String channel) {
    List<CompletableFuture<?>> perNode = new ArrayList<>();
    for (int i = 0; i < nodes.size(); i++) {
      perNode.add(
          connection(i).thenCompose(c -> c.async().subscribe(channel).toCompletableFuture()));
    }
    return AnyNode.confirmed(perNode, "subscribing to " + channel);
  }

  @Override
  public synchronized void unsubscribe(String channel) {
    for (CompletableFuture<StatefulRedisPubSubConnection<String, String>> c : connections) {
      if (c != null && c.isDone() && !c.isCompletedExceptionally()) {
        // Sent after the subscribe on the same connection, so Redis applies them in order.
        c.join().async().unsubscribe(channel);
      }
    }
  }

  private synchronized CompletableFuture<StatefulRedisPubSubConnection<String, String>> connection(
      int node) {
    CompletableFuture<StatefulRedisPubSubConnection<String, String>> current =
        connections.get(node);
    if (current == null || current.isCompletedExceptionally()) {
      current =
          nodes
              .get(node)
              .connectPubSub()
              .thenApply(
                  c -> {
                    c.addListener(
                        new RedisPubSubAdapter<>() {
                          @Override
                          public void message(String channel, String message) {
                            listener.accept(channel, Objects.requireNonNullElse(message, ""));
                          }
                        });
                    return c;
                  });
      connections.set(node, current);
    }
    return current;
  }
}
