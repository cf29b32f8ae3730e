package io.fencedlock.sim;

import io.fencedlock.redlock.spi.NodeKeys;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * One simulated Redis master: its keys ({@link NodeStore}) on its own clock, the scripts it runs
 * ({@link ScriptModel}), and what faults do to it. Paused (SIGSTOP), it executes nothing and queues
 * what arrives; down, it executes nothing and loses what arrives; a crash breaks every connection
 * and, without persistence, wipes its memory (with {@code appendfsync always} it keeps everything).
 * Its clock is the simulated time plus an offset that clock steps move; keys expire by it, as
 * Redis's do by its wall clock.
 */
final class SimNode {
  private final int index;
  private final EventLoop loop;
  private final NodeStore store;
  private final ScriptModel scripts;
  private final boolean markerCheck;
  private long clockOffsetNanos;
  private boolean paused;
  private boolean down;

  /** Bumped by every crash: a request sent on an older connection never arrives. */
  private int connectionEpoch;

  /** When this node last came back without its memory (simulated nanos), or -1. */
  private long emptySince = -1;

  private final ArrayDeque<Runnable> queued = new ArrayDeque<>();

  /** Channel -> subscribed clients, in client order. */
  private final Map<String, boolean[]> subscribers = new HashMap<>();

  private final int clients;

  /**
   * @param detectsAmnesia whether a node without its marker is kept out of quorums: fenced clients
   *     with the marker check (unfenced ones never look at the marker)
   */
  SimNode(
      int index,
      EventLoop loop,
      int clients,
      Set<Bug> bugs,
      boolean detectsAmnesia,
      KeyObserver observer) {
    this.index = index;
    this.loop = loop;
    this.clients = clients;
    this.store = new NodeStore(this::nowMillis);
    this.scripts = new ScriptModel(store, bugs, observer);
    this.markerCheck = detectsAmnesia && !bugs.contains(Bug.NO_MARKER_CHECK);
  }

  int index() {
    return index;
  }

  NodeStore store() {
    return store;
  }

  ScriptModel scripts() {
    return scripts;
  }

  long nowMillis() {
    return Math.floorDiv(loop.now() + clockOffsetNanos, 1_000_000L);
  }

  long clockOffsetNanos() {
    return clockOffsetNanos;
  }

  boolean isDown() {
    return down;
  }

  boolean isPaused() {
    return paused;
  }

  int connectionEpoch() {
    return connectionEpoch;
  }

  /**
   * Whether this node cannot take part in any quorum until a client re-admits it, so that it cannot
   * help a rival: it has no marker (it lost its memory, now or in a crash before this one, and
   * nobody re-admitted it yet) while acquires check the marker. Down or up makes no difference:
   * down, it takes part in nothing; back up, it refuses until re-admitted. (Where nothing checks
   * the marker, a node that lost its memory takes part at once when it is back, and is not amnesic
   * in this sense.)
   */
  boolean isAmnesic() {
    return markerCheck && store.peek(NodeKeys.MARKER) == null;
  }

  /** Runs a request that arrived: now, or when the node resumes if it is paused. */
  void execute(Runnable request) {
    if (paused) {
      queued.add(request);
    } else {
      request.run();
    }
  }

  void pause() {
    paused = true;
  }

  /** Resumes: what arrived meanwhile runs now, in arrival order, each as its own step. */
  void resume() {
    if (!paused) {
      return;
    }
    paused = false;
    while (!queued.isEmpty()) {
      Runnable r = queued.poll();
      int epoch = connectionEpoch;
      loop.at(
          loop.now(),
          Event.WORLD,
          () -> {
            if (!down && connectionEpoch == epoch) {
              execute(r);
            }
          });
    }
  }

  /** Kill -9: connections break; without persistence the memory is gone. */
  void crash(boolean keepsMemory) {
    down = true;
    paused = false;
    connectionEpoch++;
    queued.clear();
    subscribers.clear();
    if (!keepsMemory) {
      store.wipe();
    }
  }

  /**
   * Back up (clients resubscribe, as Lettuce does after reconnecting; see {@link SimReleaseFeed}).
   */
  void restart() {
    down = false;
    if (store.peek(NodeKeys.MARKER) == null && store.liveKeys().isEmpty()) {
      emptySince = loop.now();
    }
  }

  long emptySince() {
    return emptySince;
  }

  void stepClock(long deltaNanos) {
    clockOffsetNanos += deltaNanos;
  }

  void subscribe(String channel, int client) {
    subscribers.computeIfAbsent(channel, c -> new boolean[clients])[client] = true;
  }

  void unsubscribe(String channel, int client) {
    boolean[] subscribed = subscribers.get(channel);
    if (subscribed != null) {
      subscribed[client] = false;
    }
  }

  /** The clients subscribed to {@code channel} here, by index, or null if none ever was. */
  boolean[] subscribersOf(String channel) {
    return subscribers.get(channel);
  }
}
