package io.fencedlock.redlock.resp;

import io.fencedlock.redlock.driver.AnyNode;
import io.fencedlock.redlock.spi.ReleaseFeed;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import org.jspecify.annotations.Nullable;

/**
 * Release announcements over one subscriber connection per node, opened on the first subscribe. A
 * connection that comes back (after a node restart, say) subscribes again to every channel
 * subscribed at that moment. Thread-safe.
 */
final class RespReleaseFeed implements ReleaseFeed, AutoCloseable {

  private final List<RespConnection> connections = new ArrayList<>();
  private final Set<String> channels = ConcurrentHashMap.newKeySet();
  private volatile BiConsumer<String, String> listener = (channel, owner) -> {};

  RespReleaseFeed(List<NodeEndpoint> nodes, IoLoop loop, Duration connectTimeout) {
    for (NodeEndpoint node : nodes) {
      connections.add(
          new RespConnection(
              node,
              loop,
              connectTimeout,
              List.of(),
              error -> {},
              this::message,
              this::resubscribe));
    }
  }

  @Override
  public void listen(BiConsumer<String, String> onRelease) {
    this.listener = Objects.requireNonNull(onRelease, "onRelease");
  }

  /** A pushed {@code message} (channel, payload) goes to the listener; other replies do not. */
  private boolean message(@Nullable Object reply) {
    if (reply instanceof List<?> push
        && push.size() == 3
        && "message".equals(push.get(0))
        && push.get(1) instanceof String channel) {
      listener.accept(channel, push.get(2) instanceof String owner ? owner : "");
      return true;
    }
    return false;
  }

  /** On a connection that became ready: every channel subscribed now (once per channel). */
  private void resubscribe(RespConnection connection) {
    for (String channel : channels) {
      connection.send(new Confirmation(new CompletableFuture<>()), "SUBSCRIBE", channel);
    }
  }

  @Override
  public CompletableFuture<Void> subscribe(String channel) {
    channels.add(channel);
    List<CompletableFuture<?>> perNode = new ArrayList<>();
    for (RespConnection connection : connections) {
      CompletableFuture<Void> confirmed = new CompletableFuture<>();
      if (connection.isReady()) {
        connection.send(new Confirmation(confirmed), "SUBSCRIBE", channel);
      } else {
        // Not connected yet. Once it is, this subscribe goes out first (the connection's own
        // resubscribe of every channel follows it; a second SUBSCRIBE of a channel is harmless).
        connection
            .whenReady()
            .whenComplete(
                (ready, failure) -> {
                  if (failure != null) {
                    confirmed.completeExceptionally(failure);
                  } else if (channels.contains(channel)) {
                    connection.send(new Confirmation(confirmed), "SUBSCRIBE", channel);
                  } else {
                    confirmed.complete(null); // unsubscribed meanwhile
                  }
                });
      }
      perNode.add(confirmed);
    }
    return AnyNode.confirmed(perNode, "subscribing to " + channel);
  }

  @Override
  public void unsubscribe(String channel) {
    channels.remove(channel);
    for (RespConnection connection : connections) {
      if (connection.isReady()) {
        // Sent after any subscribe of the channel on this connection, so it applies after it.
        connection.send(new Confirmation(new CompletableFuture<>()), "UNSUBSCRIBE", channel);
      }
    }
  }

  @Override
  public void close() {
    connections.forEach(RespConnection::close);
  }

  /** The reply to one SUBSCRIBE or UNSUBSCRIBE of one channel. */
  private static final class Confirmation extends RespConnection.Call {
    private final CompletableFuture<Void> confirmed;

    Confirmation(CompletableFuture<Void> confirmed) {
      this.confirmed = confirmed;
    }

    @Override
    void reply(@Nullable Object reply) {
      if (reply instanceof RespError error) {
        confirmed.completeExceptionally(new RespCommandException(error.message()));
      } else {
        confirmed.complete(null);
      }
    }

    @Override
    void fail(Throwable cause) {
      confirmed.completeExceptionally(cause);
    }
  }
}
