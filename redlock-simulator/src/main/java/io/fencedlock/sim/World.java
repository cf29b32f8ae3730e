package io.fencedlock.sim;

import java.util.ArrayList;
import java.util.List;

/**
 * The simulated parts of one schedule that every client's driver shares: the event loop, the nodes,
 * the network, the trace, the counters and the key audit. Built fresh for every schedule, so that
 * nothing leaks from one into the next.
 */
final class World {
  final EventLoop loop;
  final SimNode[] nodes;
  final Network network;
  final Trace trace;
  final Stats stats;
  final KeyAudit audit;
  final long nodeTimeoutNanos;
  final long adminTimeoutNanos;
  private final List<SimReleaseFeed> feeds = new ArrayList<>();

  World(
      EventLoop loop,
      SimNode[] nodes,
      Network network,
      Trace trace,
      Stats stats,
      KeyAudit audit,
      long nodeTimeoutNanos,
      long adminTimeoutNanos) {
    this.loop = loop;
    this.nodes = nodes;
    this.network = network;
    this.trace = trace;
    this.stats = stats;
    this.audit = audit;
    this.nodeTimeoutNanos = nodeTimeoutNanos;
    this.adminTimeoutNanos = adminTimeoutNanos;
  }

  void register(SimReleaseFeed feed) {
    feeds.add(feed);
  }

  /** How many clients are subscribed to {@code channel} on {@code node} (PUBLISH's reply). */
  long listeners(SimNode node, String channel) {
    boolean[] subscribed = node.subscribersOf(channel);
    long count = 0;
    if (subscribed != null) {
      for (boolean on : subscribed) {
        count += on ? 1 : 0;
      }
    }
    return count;
  }

  /** PUBLISH on {@code node}: every subscribed client gets the message over its pub/sub link. */
  void publish(SimNode node, String channel, String message) {
    boolean[] subscribed = node.subscribersOf(channel);
    if (subscribed == null) {
      return;
    }
    for (int client = 0; client < subscribed.length; client++) {
      if (subscribed[client]) {
        SimReleaseFeed feed = feeds.get(client);
        network.reply(
            Network.PUBSUB,
            client,
            node.index(),
            () -> feed.deliver(node.index(), channel, message));
      }
    }
  }

  /** After a restart every client resubscribes its channels there (Lettuce does on reconnect). */
  void resubscribe(SimNode node) {
    for (SimReleaseFeed feed : feeds) {
      feed.resubscribe(node);
    }
  }
}
