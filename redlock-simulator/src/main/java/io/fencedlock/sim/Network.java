package io.fencedlock.sim;

import java.util.SplittableRandom;

/**
 * The links between clients and nodes. Each (client, node) pair has a command connection and a
 * pub/sub connection; each direction of each keeps its messages in send order, as TCP does (a
 * message never arrives before one sent earlier on the same connection). Delays and losses are
 * drawn from the schedule's network randomness; a cut link loses everything. A node restart breaks
 * its connections: a request sent before it never arrives.
 */
final class Network {
  static final int COMMAND = 0;
  static final int PUBSUB = 1;
  private static final long MIN_DELAY_NANOS = 50_000;

  private final EventLoop loop;
  private final SimNode[] nodes;
  private final Stats stats;
  private final SplittableRandom random;
  private final int nodeCount;

  /** Per connection and direction, when its last message arrives: [kind][client * nodes + node]. */
  private final long[][] lastRequest = new long[2][];

  private final long[][] lastReply = new long[2][];
  private final boolean[] cut;
  private NetProfile profile;

  Network(
      EventLoop loop,
      SimNode[] nodes,
      int clients,
      Stats stats,
      SplittableRandom random,
      NetProfile profile) {
    this.loop = loop;
    this.nodes = nodes;
    this.stats = stats;
    this.random = random;
    this.nodeCount = nodes.length;
    this.profile = profile;
    for (int k = 0; k < 2; k++) {
      lastRequest[k] = new long[clients * nodeCount];
      lastReply[k] = new long[clients * nodeCount];
    }
    this.cut = new boolean[clients * nodeCount];
  }

  void setProfile(NetProfile profile) {
    this.profile = profile;
  }

  void cut(int client, int node, boolean isCut) {
    if (client * nodeCount + node < cut.length) {
      cut[client * nodeCount + node] = isCut;
    }
  }

  void healCuts() {
    java.util.Arrays.fill(cut, false);
  }

  /**
   * Sends a request; {@code atNode} runs on the node when it arrives, unless it is lost, the node
   * restarted since it was sent, or the node is down then. Returns false if it was lost on the way
   * out (the caller only traces it).
   */
  boolean request(int kind, int client, int node, Runnable atNode) {
    int link = client * nodeCount + node;
    if (cut[link] || lose(profile.requestLoss())) {
      stats.requestsLost++;
      return false;
    }
    SimNode target = nodes[node];
    int incarnation = target.connectionEpoch();
    long arrival = Math.max(loop.now() + delay(), lastRequest[kind][link]);
    lastRequest[kind][link] = arrival;
    loop.at(
        arrival,
        Event.WORLD,
        () -> {
          if (target.connectionEpoch() != incarnation || target.isDown()) {
            stats.requestsLostToRestart++;
            return;
          }
          target.execute(atNode);
        });
    return true;
  }

  /** Sends a reply (or a pub/sub message) back; {@code atClient} runs as an event of the client. */
  boolean reply(int kind, int client, int node, Runnable atClient) {
    int link = client * nodeCount + node;
    if (cut[link] || lose(profile.replyLoss())) {
      stats.repliesLost++;
      return false;
    }
    long arrival = Math.max(loop.now() + delay(), lastReply[kind][link]);
    lastReply[kind][link] = arrival;
    loop.at(arrival, client, atClient);
    return true;
  }

  private boolean lose(double probability) {
    return probability > 0 && random.nextDouble() < probability;
  }

  private long delay() {
    NetProfile p = profile;
    if (p.slowRate() > 0 && random.nextDouble() < p.slowRate()) {
      stats.slowMessages++;
      return MIN_DELAY_NANOS + random.nextLong(Math.max(1, p.slowMaxNanos()));
    }
    // Exponential around the mean, capped at 8 means: a short tail, as on a LAN.
    double u = random.nextDouble();
    long exp = (long) (-Math.log(1 - u) * p.meanDelayNanos());
    return MIN_DELAY_NANOS + Math.min(exp, 8 * p.meanDelayNanos());
  }
}
