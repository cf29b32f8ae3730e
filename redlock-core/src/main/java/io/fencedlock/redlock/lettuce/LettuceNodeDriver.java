package io.fencedlock.redlock.lettuce;

import io.fencedlock.redlock.RedlockConfig;
import io.fencedlock.redlock.driver.ConnectWait;
import io.fencedlock.redlock.driver.DriverOptions;
import io.fencedlock.redlock.driver.NodeReplies;
import io.fencedlock.redlock.driver.NodeScriptCall;
import io.fencedlock.redlock.driver.OwnThreads;
import io.fencedlock.redlock.driver.RequestTimer;
import io.fencedlock.redlock.driver.SettingsAudit;
import io.fencedlock.redlock.spi.InitReply;
import io.fencedlock.redlock.spi.LockReply;
import io.fencedlock.redlock.spi.LockRequest;
import io.fencedlock.redlock.spi.MultiLockReply;
import io.fencedlock.redlock.spi.NamingRelease;
import io.fencedlock.redlock.spi.NodeDriver;
import io.fencedlock.redlock.spi.NodeKeys;
import io.fencedlock.redlock.spi.NodeMarks;
import io.fencedlock.redlock.spi.ReleaseFeed;
import io.lettuce.core.KeyValue;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.Delay;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The {@link NodeDriver} on Lettuce: one connection per node, every request bounded by the node
 * timeout (a {@link RequestTimer}), scripts by EVALSHA with an EVAL fallback (by EVAL alone to a
 * node that refuses their loads), release announcements over pub/sub. This is where script
 * arguments are encoded and replies parsed; the Lua scripts are in {@code
 * src/main/resources/io/fencedlock/redlock/lua/}. Thread-safe.
 */
public final class LettuceNodeDriver implements NodeDriver {

  private final List<NodeClient> clients;
  private final ClientResources resources;
  private final RequestTimer timer;
  private final OwnThreads threads;
  private final LettuceReleaseFeed releases;
  private final Duration adminTimeout;

  /** acquire.lua's ARGV[3]. */
  private final String markerCheck;

  private LettuceNodeDriver(
      List<NodeClient> clients,
      ClientResources resources,
      RequestTimer timer,
      OwnThreads threads,
      Duration adminTimeout,
      boolean markerCheck) {
    this.clients = clients;
    this.resources = resources;
    this.timer = timer;
    this.threads = threads;
    this.releases = new LettuceReleaseFeed(clients);
    this.adminTimeout = adminTimeout;
    this.markerCheck = markerCheck ? "1" : "0";
  }

  /** A driver for the configured nodes, with {@link DriverOptions#defaults()}. */
  public static LettuceNodeDriver open(RedlockConfig config) {
    return open(config, DriverOptions.defaults());
  }

  /**
   * A driver for the configured nodes, with their node timeout for lock operations and their
   * connect timeout for connects and administrative calls. Connects lazily ({@link #connect}).
   */
  public static LettuceNodeDriver open(RedlockConfig config, DriverOptions options) {
    boolean interrupted = Thread.currentThread().isInterrupted();
    OwnThreads threads = new OwnThreads();
    ClientResources resources =
        DefaultClientResources.builder()
            .ioThreadPoolSize(2)
            .computationThreadPoolSize(2)
            .threadFactoryProvider(pool -> threads.track(new DefaultThreadFactory(pool, true)))
            // Reconnect quickly after a node restarts; the default backs off up to 30 s.
            .reconnectDelay(
                Delay.exponential(
                    Duration.ofMillis(10), Duration.ofSeconds(1), 2, TimeUnit.MILLISECONDS))
            .build();
    if (interrupted) {
      Thread.currentThread().interrupt(); // Lettuce's start-up clears the flag; it is the caller's
    }
    RequestTimer timer =
        new RequestTimer(config.nodeTimeout(), threads.factory("redlock-timeouts"));
    List<NodeClient> clients = new ArrayList<>();
    for (String uri : config.nodes()) {
      clients.add(new NodeClient(uri, resources, timer, config.connectTimeout()));
    }
    return new LettuceNodeDriver(
        List.copyOf(clients),
        resources,
        timer,
        threads,
        config.connectTimeout(),
        options.checksMarker());
  }

  @Override
  public int size() {
    return clients.size();
  }

  @Override
  public String label(int node) {
    return clients.get(node).label();
  }

  @Override
  public void connect(Duration timeout) {
    ConnectWait.awaitAll(
        clients.stream().map(NodeClient::connect).toArray(CompletableFuture[]::new), timeout);
  }

  @Override
  public CompletableFuture<LockReply> lock(int node, LockRequest request) {
    NodeClient client = clients.get(node);
    String ttl = Long.toString(request.ttlMillis());
    if (request.fenceKey() != null) {
      return script(
          node,
          NodeScriptCall.acquire(
              request, ttl, Long.toString(request.predictedToken()), markerCheck),
          ScriptOutputType.MULTI,
          LettuceNodeDriver::lockReply);
    }
    if (request.predecessorOwner() != null) {
      return script(
          node,
          NodeScriptCall.handoff(request, ttl),
          ScriptOutputType.MULTI,
          LettuceNodeDriver::lockReply);
    }
    return client
        .setNxPx(request.lockKey(), request.owner(), request.ttlMillis())
        .thenApply(
            ok ->
                "OK".equals(ok)
                    ? new LockReply.Granted(0, false)
                    : new LockReply.Refused(-1, 0, null));
  }

  /** Sends {@code call} to {@code node}, bounded by the node timeout. */
  private <T, R> CompletableFuture<R> script(
      int node, NodeScriptCall call, ScriptOutputType type, Function<T, R> parse) {
    return clients.get(node).script(call.script(), type, parse, call.keys(), call.args());
  }

  /**
   * A lock step's reply ({@link NodeReplies#lockReply}). MULTI output hands the token alone, a bulk
   * string, over as a list of one; OBJECT output, which would not, fails on a bulk string alone
   * (Lettuce 6.8).
   */
  private static LockReply lockReply(List<Object> reply) {
    return NodeReplies.lockReply(reply.size() == 1 ? reply.get(0) : reply);
  }

  /** Whether a script's integer reply is 1 (its "yes"). */
  private static boolean isOne(Long reply) {
    return reply == 1L;
  }

  @Override
  public CompletableFuture<Boolean> writeToken(
      int node, String lockKey, String fenceKey, String owner, long token) {
    return script(
        node,
        NodeScriptCall.fence(lockKey, fenceKey, owner, token),
        ScriptOutputType.INTEGER,
        LettuceNodeDriver::isOne);
  }

  @Override
  public CompletableFuture<Boolean> lengthen(
      int node, String lockKey, String owner, long ttlMillis) {
    return script(
        node,
        NodeScriptCall.extend(lockKey, owner, ttlMillis),
        ScriptOutputType.INTEGER,
        LettuceNodeDriver::isOne);
  }

  @Override
  public CompletableFuture<Boolean> release(
      int node, String lockKey, String owner, @Nullable String announceOn) {
    return script(
        node,
        NodeScriptCall.release(lockKey, owner, announceOn),
        ScriptOutputType.INTEGER,
        LettuceNodeDriver::isOne);
  }

  @Override
  public CompletableFuture<NamingRelease> releaseNamingNext(
      int node, String lockKey, String owner, String announceOn, String namedPrefix, long token) {
    return script(
        node,
        NodeScriptCall.releaseNamingNext(lockKey, owner, announceOn, namedPrefix, token),
        ScriptOutputType.INTEGER,
        (Long reply) -> NamingRelease.ofScriptReply(reply));
  }

  @Override
  public CompletableFuture<Long> announce(int node, String channel, String message) {
    return clients.get(node).publish(channel, message);
  }

  @Override
  public CompletableFuture<MultiLockReply> lockAll(
      int node, List<String> lockKeys, List<String> fenceKeys, String owner, long ttlMillis) {
    return script(
        node,
        NodeScriptCall.acquireAll(lockKeys, fenceKeys, owner, ttlMillis, markerCheck),
        ScriptOutputType.MULTI,
        NodeReplies::multiLockReply);
  }

  @Override
  public CompletableFuture<Boolean> writeTokens(
      int node, List<String> lockKeys, List<String> fenceKeys, String owner, List<Long> tokens) {
    return script(
        node,
        NodeScriptCall.fenceAll(lockKeys, fenceKeys, owner, tokens),
        ScriptOutputType.INTEGER,
        LettuceNodeDriver::isOne);
  }

  @Override
  public CompletableFuture<Boolean> lengthenAll(
      int node, List<String> lockKeys, String owner, long ttlMillis) {
    return script(
        node,
        NodeScriptCall.extendAll(lockKeys, owner, ttlMillis),
        ScriptOutputType.INTEGER,
        LettuceNodeDriver::isOne);
  }

  @Override
  public CompletableFuture<Long> releaseAll(
      int node, List<String> lockKeys, String owner, @Nullable List<String> channels) {
    return script(
        node,
        NodeScriptCall.releaseAll(lockKeys, owner, channels),
        ScriptOutputType.INTEGER,
        (Long deleted) -> deleted);
  }

  @Override
  public CompletableFuture<NodeMarks> readMarks(int node) {
    return clients
        .get(node)
        .mget(NodeKeys.MARKER, NodeKeys.HIGH_WATER)
        .thenApply(
            values -> {
              KeyValue<String, String> marker = values.get(0);
              KeyValue<String, String> highWater = values.get(1);
              return new NodeMarks(
                  marker.hasValue(),
                  marker.hasValue() ? Long.parseLong(marker.getValue()) : 0,
                  highWater.hasValue() ? Long.parseLong(highWater.getValue()) : 0);
            });
  }

  @Override
  public CompletableFuture<Boolean> hasMarker(int node) {
    return clients
        .get(node)
        .mget(adminTimeout, NodeKeys.MARKER)
        .thenApply(values -> values.get(0).hasValue());
  }

  @Override
  public CompletableFuture<String> nameEmptyIncarnation(int node, String freshName) {
    NodeScriptCall call = NodeScriptCall.nameEmptyNode(freshName);
    return clients
        .get(node)
        .script(
            call.script(),
            adminTimeout,
            ScriptOutputType.VALUE,
            (String name) -> name == null ? "" : name,
            call.keys(),
            call.args());
  }

  @Override
  public CompletableFuture<InitReply> initialize(
      int node, long epoch, @Nullable String incarnation) {
    NodeScriptCall call = NodeScriptCall.initNode(epoch, incarnation);
    return clients
        .get(node)
        .script(
            call.script(),
            adminTimeout,
            ScriptOutputType.MULTI,
            NodeReplies::initReply,
            call.keys(),
            call.args());
  }

  @Override
  public CompletableFuture<String> serverId(int node) {
    return clients.get(node).runId(adminTimeout);
  }

  @Override
  public CompletableFuture<List<String>> settingsWarnings() {
    List<String> labels = new ArrayList<>();
    clients.forEach(c -> labels.add(c.label()));
    return SettingsAudit.warnings(
        labels, (node, parameter) -> clients.get(node).configGet(parameter));
  }

  @Override
  public ReleaseFeed releases() {
    return releases;
  }

  @Override
  public boolean isDriverThread() {
    return threads.isCurrentThreadOwn();
  }

  /** Closes every connection, then Lettuce's threads, then the request timer. Idempotent. */
  @Override
  public void close() {
    RuntimeException failure = null;
    for (NodeClient client : clients) {
      try {
        client.close();
      } catch (RuntimeException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    resources.shutdown(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(2, TimeUnit.SECONDS);
    timer.close(); // last: requests the clients' shutdown left unanswered fail now
    if (failure != null) {
      throw failure;
    }
  }
}
