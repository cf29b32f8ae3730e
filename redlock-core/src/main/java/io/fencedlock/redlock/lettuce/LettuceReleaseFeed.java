package io.fencedlock.redlock.lettuce;

import io.fencedlock.redlock.driver.AnyNode;
import io.fencedlock.redlock.spi.ReleaseFeed;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;

/**
 * Release announcements over one lazily opened pub/sub connection per node (Lettuce resubscribes it
 * after a reconnect). A subscribe and the unsubscribe of a channel may cross a connection being
 * opened or reconnecting: the subscribe goes out only if the channel is still wanted, and a
 * subscription the node confirms for a channel no longer wanted (Lettuce's resubscribe of a channel
 * whose unsubscribe it rejected while reconnecting) is unsubscribed again. Thread-safe.
 */
final class LettuceReleaseFeed implements ReleaseFeed {

  private final List<NodeClient> nodes;

  /** Per node, the pub/sub connection once asked for; guarded by {@code this}. */
  private final List<CompletableFuture<StatefulRedisPubSubConnection<String, String>>> connections;

  /** The channels subscribed and not unsubscribed since; guarded by {@code this}. */
  private final Set<String> channels = new HashSet<>();

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
  public synchronized CompletableFuture<Void> subscribe(String channel) {
    channels.add(channel);
    List<CompletableFuture<?>> perNode = new ArrayList<>();
    for (int i = 0; i < nodes.size(); i++) {
      perNode.add(connection(i).thenCompose(c -> subscribeIfWanted(c, channel)));
    }
    return AnyNode.confirmed(perNode, "subscribing to " + channel);
  }

  /**
   * Sends the subscribe, unless the channel was unsubscribed meanwhile (the connection was being
   * opened): under the lock, so that it goes out before any later unsubscribe of the channel.
   */
  private synchronized CompletableFuture<?> subscribeIfWanted(
      StatefulRedisPubSubConnection<String, String> connection, String channel) {
    return channels.contains(channel)
        ? connection.async().subscribe(channel).toCompletableFuture()
        : CompletableFuture.completedFuture(null);
  }

  /** A subscription the node confirmed; undone if the channel is no longer wanted. */
  private synchronized void confirmed(
      StatefulRedisPubSubConnection<String, String> connection, String channel) {
    if (!channels.contains(channel)) {
      connection.async().unsubscribe(channel);
    }
  }

  @Override
  public synchronized void unsubscribe(String channel) {
    channels.remove(channel);
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

                          @Override
                          public void subscribed(String channel, long count) {
                            confirmed(c, channel);
                          }
                        });
                    return c;
                  });
      connections.set(node, current);
    }
    return current;
  }
}
