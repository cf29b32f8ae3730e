package io.fencedlock.sim;

import io.fencedlock.redlock.spi.ReleaseFeed;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;

/**
 * One client's release announcements: a pub/sub connection per node, like the Lettuce feed.
 * SUBSCRIBE and UNSUBSCRIBE travel to the node over it (in order, maybe lost) and take effect
 * there; a release that deletes a key publishes to the clients subscribed on that node then. The
 * channels this client is subscribed to are resubscribed on a node after it restarts.
 */
final class SimReleaseFeed implements ReleaseFeed {
  private final World world;
  private final int client;
  private final SimDriver driver;

  /** What this client is subscribed to, in the order it subscribed. */
  private final Set<String> channels = new LinkedHashSet<>();

  private final List<CompletableFuture<Void>> unconfirmed = new ArrayList<>();
  private BiConsumer<String, String> listener = (channel, owner) -> {};

  SimReleaseFeed(World world, int client, SimDriver driver) {
    this.world = world;
    this.client = client;
    this.driver = driver;
  }

  @Override
  public void listen(BiConsumer<String, String> onRelease) {
    this.listener = onRelease;
  }

  @Override
  public CompletableFuture<Void> subscribe(String channel) {
    CompletableFuture<Void> subscribed = new CompletableFuture<>();
    if (driver.isClosed()) {
      subscribed.completeExceptionally(new SimFailures.Unavailable("the driver is closed"));
      return subscribed;
    }
    channels.add(channel);
    unconfirmed.removeIf(CompletableFuture::isDone);
    unconfirmed.add(subscribed);
    int[] failures = new int[1];
    for (SimNode node : world.nodes) {
      if (node.isDown()) {
        if (++failures[0] == world.nodes.length) {
          world.loop.after(
              0,
              client,
              () ->
                  subscribed.completeExceptionally(
                      new SimFailures.Unavailable("no node to subscribe on")));
        }
        continue;
      }
      world.network.request(
          Network.PUBSUB,
          client,
          node.index(),
          () -> {
            node.subscribe(channel, client);
            world.network.reply(
                Network.PUBSUB, client, node.index(), () -> subscribed.complete(null));
          });
    }
    return subscribed;
  }

  @Override
  public void unsubscribe(String channel) {
    channels.remove(channel);
    for (SimNode node : world.nodes) {
      if (!node.isDown()) {
        world.network.request(
            Network.PUBSUB, client, node.index(), () -> node.unsubscribe(channel, client));
      }
    }
  }

  /** A message arrived from {@code node}. */
  void deliver(int node, String channel, String message) {
    if (driver.isClosed()) {
      return; // Lettuce delivers nothing after closing
    }
    world.stats.announcements++;
    // a naming message has three lines ("owner\nclient\ntoken"): one trace line each event
    world.trace.add(
        world.loop.now(), "announced", client, node, Long.MIN_VALUE, message.replace('\n', ' '));
    listener.accept(channel, message);
  }

  void resubscribe(SimNode node) {
    if (driver.isClosed()) {
      return;
    }
    for (String channel : channels) {
      node.subscribe(channel, client);
    }
  }

  /** On close: a subscription nobody confirmed fails, so no future is left pending. */
  void close() {
    for (CompletableFuture<Void> f : unconfirmed) {
      f.completeExceptionally(new SimFailures.Unavailable("the driver is closed"));
    }
    unconfirmed.clear();
  }
}
