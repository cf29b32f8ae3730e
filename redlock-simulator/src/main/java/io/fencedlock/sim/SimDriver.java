package io.fencedlock.sim;

import io.fencedlock.redlock.spi.InitReply;
import io.fencedlock.redlock.spi.LockReply;
import io.fencedlock.redlock.spi.LockRequest;
import io.fencedlock.redlock.spi.NamingRelease;
import io.fencedlock.redlock.spi.NodeDriver;
import io.fencedlock.redlock.spi.NodeMarks;
import io.fencedlock.redlock.spi.ReleaseFeed;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * One client's {@link NodeDriver} over the simulated nodes. A call sends its request over the
 * client's connection to the node (in send order, with a drawn delay, maybe lost); the node runs
 * the script atomically when it arrives (or when it resumes, if paused); the reply comes back the
 * same way, maybe lost after the script ran. A timeout event fails the future with a {@link
 * java.util.concurrent.TimeoutException} after the node timeout (admin calls: the connect timeout)
 * unless the reply came first, as the Lettuce driver's request timer does. A call to a node that is
 * down fails at once, as Lettuce fails commands without a connection.
 *
 * <p>While {@link #instant} is set (inside {@code Redlock.create}, which waits for its start-up
 * calls with a blocking get), calls run on the node at once and complete before they return:
 * simulated creation is instantaneous and fault-free.
 */
final class SimDriver implements NodeDriver {
  /** The kinds of call, with their trace labels made once. */
  enum Script {
    LOCK("lock"),
    FENCE("fence"),
    EXTEND("extend"),
    RELEASE("release"),
    RELEASE_ANNOUNCED("release+pub"),
    RELEASE_NAMING("release+name"),
    ANNOUNCE("announce"),
    READ_MARKS("read-marks"),
    HAS_MARKER("has-marker"),
    NAME_EMPTY("name-empty"),
    INIT("init"),
    READMIT("readmit");

    final String sent;
    final String ran;

    Script(String label) {
      this.sent = label;
      this.ran = "ran " + label;
    }
  }

  private final World world;
  private final int client;
  private final SimReleaseFeed feed;

  /** Every future not known to be done, in call order, failed in that order on close. */
  private final List<CompletableFuture<?>> outstanding = new ArrayList<>();

  private boolean instant;
  private boolean closed;

  SimDriver(World world, int client) {
    this.world = world;
    this.client = client;
    this.feed = new SimReleaseFeed(world, client, this);
    world.register(feed);
  }

  void instant(boolean on) {
    this.instant = on;
  }

  boolean isClosed() {
    return closed;
  }

  @Override
  public int size() {
    return world.nodes.length;
  }

  @Override
  public String label(int node) {
    return "127.0.0.1:" + (Simulation.FIRST_PORT + node);
  }

  @Override
  public void connect(Duration timeout) {
    // Simulated connections exist from the start; a down node fails each call instead.
  }

  @Override
  public CompletableFuture<LockReply> lock(int node, LockRequest request) {
    world.audit.lockSent(node, request);
    return call(
        node, world.nodeTimeoutNanos, Script.LOCK, request.owner(), n -> n.scripts().lock(request));
  }

  @Override
  public CompletableFuture<Boolean> writeToken(
      int node, String lockKey, String fenceKey, String owner, long token) {
    return call(
        node,
        world.nodeTimeoutNanos,
        Script.FENCE,
        owner,
        n -> n.scripts().writeToken(lockKey, fenceKey, owner, token));
  }

  @Override
  public CompletableFuture<Boolean> lengthen(
      int node, String lockKey, String owner, long ttlMillis) {
    return call(
        node,
        world.nodeTimeoutNanos,
        Script.EXTEND,
        owner,
        n -> n.scripts().lengthen(lockKey, owner, ttlMillis));
  }

  @Override
  public CompletableFuture<Boolean> release(
      int node, String lockKey, String owner, @Nullable String announceOn) {
    world.audit.releaseSent(node, owner);
    return call(
        node,
        world.nodeTimeoutNanos,
        announceOn == null ? Script.RELEASE : Script.RELEASE_ANNOUNCED,
        owner,
        n -> {
          boolean deleted = n.scripts().release(lockKey, owner);
          if (deleted && announceOn != null) {
            world.publish(n, announceOn, owner);
          }
          return deleted;
        });
  }

  @Override
  public CompletableFuture<NamingRelease> releaseNamingNext(
      int node, String lockKey, String owner, String announceOn, String namedPrefix, long token) {
    world.audit.releaseSent(node, owner);
    return call(
        node,
        world.nodeTimeoutNanos,
        Script.RELEASE_NAMING,
        owner,
        n -> {
          // the same messages release.lua publishes: to the first queued waiter still listening
          // on its own channel, or else to everyone
          String named =
              n.scripts()
                  .releaseNamingNext(
                      lockKey, owner, waiter -> world.listeners(n, namedPrefix + waiter) > 0);
          if (named != null && named.isEmpty()) {
            world.publish(n, announceOn, owner + "\n");
          } else if (named != null) {
            world.stats.waitersNamed++;
            world.publish(n, namedPrefix + named, owner + "\n" + named + "\n" + token);
          }
          return ScriptModel.reply(named);
        });
  }

  @Override
  public CompletableFuture<Long> announce(int node, String channel, String message) {
    return call(
        node,
        world.nodeTimeoutNanos,
        Script.ANNOUNCE,
        null,
        n -> {
          long listeners = world.listeners(n, channel);
          world.publish(n, channel, message);
          return listeners;
        });
  }

  @Override
  public CompletableFuture<NodeMarks> readMarks(int node) {
    return call(
        node, world.nodeTimeoutNanos, Script.READ_MARKS, null, n -> n.scripts().readMarks());
  }

  @Override
  public CompletableFuture<Boolean> hasMarker(int node) {
    return call(
        node, world.adminTimeoutNanos, Script.HAS_MARKER, null, n -> n.scripts().hasMarker());
  }

  @Override
  public CompletableFuture<String> nameEmptyIncarnation(int node, String freshName) {
    return call(
        node,
        world.adminTimeoutNanos,
        Script.NAME_EMPTY,
        freshName,
        n -> n.scripts().nameEmptyIncarnation(freshName));
  }

  @Override
  public CompletableFuture<InitReply> initialize(
      int node, long epoch, @Nullable String incarnation) {
    return call(
        node,
        world.adminTimeoutNanos,
        incarnation == null ? Script.INIT : Script.READMIT,
        incarnation,
        n -> {
          InitReply reply = n.scripts().initialize(epoch, incarnation);
          if (reply.outcome() == InitReply.Outcome.SET && incarnation != null) {
            world.stats.readmissions++;
            world.audit.readmitted(n, Simulation.MAX_LEASE_TTL.toNanos());
          }
          return reply;
        });
  }

  @Override
  public CompletableFuture<String> serverId(int node) {
    return CompletableFuture.completedFuture("simulated-run-id-" + node);
  }

  @Override
  public CompletableFuture<List<String>> settingsWarnings() {
    return CompletableFuture.completedFuture(List.of());
  }

  @Override
  public ReleaseFeed releases() {
    return feed;
  }

  @Override
  public boolean isDriverThread() {
    return false;
  }

  /** Fails every call still unanswered, in call order; later calls fail at once. Idempotent. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    world.trace.add(world.loop.now(), "driver-closed", client, -1, Long.MIN_VALUE, null);
    for (CompletableFuture<?> f : outstanding) {
      f.completeExceptionally(new SimFailures.Unavailable("the driver is closed"));
    }
    outstanding.clear();
    feed.close();
  }

  <T> CompletableFuture<T> call(
      int node,
      long timeoutNanos,
      Script what,
      @Nullable String owner,
      Function<SimNode, T> script) {
    CompletableFuture<T> future = new CompletableFuture<>();
    SimNode target = world.nodes[node];
    if (closed) {
      future.completeExceptionally(new SimFailures.Unavailable("the driver is closed"));
      return future;
    }
    if (instant) {
      if (target.isDown()) {
        future.completeExceptionally(new SimFailures.Unavailable("node " + node + " is down"));
      } else {
        future.complete(script.apply(target));
      }
      return future;
    }
    world.stats.requests++;
    Trace trace = world.trace;
    trace.add(world.loop.now(), what.sent, client, node, Long.MIN_VALUE, owner);
    track(future);
    if (target.isDown()) {
      world.loop.after(
          0,
          client,
          () ->
              future.completeExceptionally(
                  new SimFailures.Unavailable("node " + node + " is down")));
      return future;
    }
    world.loop.after(
        timeoutNanos,
        client,
        () -> {
          if (future.completeExceptionally(
              new SimFailures.Timeout("node " + node + " timed out"))) {
            world.stats.timeouts++;
            trace.add(world.loop.now(), "timeout", client, node, Long.MIN_VALUE, what.sent);
          }
        });
    boolean sent =
        world.network.request(
            Network.COMMAND,
            client,
            node,
            () -> {
              T reply = script.apply(target);
              trace.add(world.loop.now(), what.ran, client, node, Long.MIN_VALUE, reply);
              if (!world.network.reply(
                  Network.COMMAND, client, node, () -> future.complete(reply))) {
                trace.add(world.loop.now(), "reply-lost", client, node, Long.MIN_VALUE, what.sent);
              }
            });
    if (!sent) {
      trace.add(world.loop.now(), "request-lost", client, node, Long.MIN_VALUE, what.sent);
    }
    return future;
  }

  /**
   * Remembers a future for {@link #close}; forgets those done, now and then, so the list stays
   * short.
   */
  private void track(CompletableFuture<?> future) {
    if (outstanding.size() >= 64) {
      outstanding.removeIf(CompletableFuture::isDone);
    }
    outstanding.add(future);
  }
}
