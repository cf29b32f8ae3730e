package io.fencedlock.redlock.resp;

import io.fencedlock.redlock.RedlockConfig;
import io.fencedlock.redlock.driver.ConnectWait;
import io.fencedlock.redlock.driver.DriverOptions;
import io.fencedlock.redlock.driver.LuaScript;
import io.fencedlock.redlock.driver.NodeReplies;
import io.fencedlock.redlock.driver.NodeScriptCall;
import io.fencedlock.redlock.driver.OwnThreads;
import io.fencedlock.redlock.driver.ScriptLoads;
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
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The default {@link NodeDriver}: RESP2 by hand over one plain TCP connection per node, all on one
 * I/O thread ({@link IoLoop}). A caller encodes its command and writes it to the node's socket
 * itself; the I/O thread parses each reply and completes the call's future on that thread, so a
 * quorum step costs the caller one wake-up, by the reply that decides it. Every lock operation is
 * bounded by the node timeout (timed out on the I/O thread), administrative ones by the connect
 * timeout; scripts go by EVALSHA (loaded when a connection opens) with an EVAL fallback, or by EVAL
 * to a node that refuses the loads ({@link ScriptLoads}); release announcements arrive on a
 * subscriber connection per node ({@link RespReleaseFeed}).
 *
 * <p>It replaced Lettuce on the hot path because Lettuce's own quorum fan-out was measured above
 * the performance targets before any of this library's work (docs/analysis.md, section 10). It
 * speaks plain TCP with optional {@code AUTH} and {@code SELECT}; for TLS, Unix sockets or
 * Sentinel, {@link io.fencedlock.redlock.Redlock#create(RedlockConfig)} uses {@link
 * io.fencedlock.redlock.lettuce.LettuceNodeDriver}. Thread-safe.
 */
public final class RespNodeDriver implements NodeDriver {

  private final List<RespConnection> nodes;

  /** Per node: whether it refused the scripts' loads, so that they go to it as EVAL. */
  private final List<ScriptLoads> loads;

  private final RespReleaseFeed releases;
  private final IoLoop loop;
  private final long nodeTimeoutNanos;
  private final OwnThreads threads;
  private final long adminTimeoutNanos;

  /** The numkeys argument of EVALSHA for up to 9 keys, without a new string per call. */
  private static final String[] KEY_COUNTS = {"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"};

  /** acquire.lua's ARGV[3]. */
  private final String markerCheck;

  private RespNodeDriver(RedlockConfig config, DriverOptions options) {
    List<NodeEndpoint> endpoints = new ArrayList<>();
    for (String uri : config.nodes()) {
      endpoints.add(NodeEndpoint.of(uri)); // first, so a bad URI starts no thread
    }
    this.threads = new OwnThreads();
    this.nodeTimeoutNanos = config.nodeTimeout().toNanos();
    this.loop = new IoLoop(threads.factory("redlock-io"), nodeTimeoutNanos);
    List<String[]> scriptLoads = new ArrayList<>();
    for (LuaScript script : LuaScript.ALL) {
      // Loaded on connect, so that a script's first call does not answer NOSCRIPT (a lock step
      // is then refused, other calls take a second round trip).
      scriptLoads.add(new String[] {"SCRIPT", "LOAD", script.source()});
    }
    List<RespConnection> connections = new ArrayList<>();
    List<ScriptLoads> refusals = new ArrayList<>();
    for (NodeEndpoint endpoint : endpoints) {
      ScriptLoads refusal = new ScriptLoads(endpoint.label());
      refusals.add(refusal);
      connections.add(
          new RespConnection(
              endpoint,
              loop,
              config.connectTimeout(),
              scriptLoads,
              refusal::refusedWith, // the handshake is only script loads
              reply -> false,
              ready -> {}));
    }
    this.nodes = List.copyOf(connections);
    this.loads = List.copyOf(refusals);
    this.releases = new RespReleaseFeed(endpoints, loop, config.connectTimeout());
    this.adminTimeoutNanos = config.connectTimeout().toNanos();
    this.markerCheck = options.checksMarker() ? "1" : "0";
  }

  /** Whether every configured node can be reached by this driver (plain TCP). */
  public static boolean supports(RedlockConfig config) {
    return config.nodes().stream().allMatch(NodeEndpoint::supports);
  }

  /** A driver for the configured nodes, with {@link DriverOptions#defaults()}. */
  public static RespNodeDriver open(RedlockConfig config) {
    return open(config, DriverOptions.defaults());
  }

  /**
   * A driver for the configured nodes; connects lazily ({@link #connect}).
   *
   * @throws IllegalArgumentException if a node is not plain TCP (see {@link #supports})
   */
  public static RespNodeDriver open(RedlockConfig config, DriverOptions options) {
    return new RespNodeDriver(config, options);
  }

  @Override
  public int size() {
    return nodes.size();
  }

  @Override
  public String label(int node) {
    return nodes.get(node).label();
  }

  @Override
  public void connect(Duration timeout) {
    CompletableFuture<?>[] connects = new CompletableFuture<?>[nodes.size()];
    for (int i = 0; i < connects.length; i++) {
      connects[i] = nodes.get(i).whenReady();
    }
    ConnectWait.awaitAll(connects, timeout);
  }

  @Override
  public CompletableFuture<LockReply> lock(int node, LockRequest request) {
    if (request.fenceKey() != null) {
      return stepScript(
          node,
          LuaScript.ACQUIRE,
          request,
          null,
          null,
          0,
          () ->
              NodeScriptCall.acquire(
                  request,
                  Long.toString(request.ttlMillis()),
                  Long.toString(request.predictedToken()),
                  markerCheck),
          NodeReplies::lockReply);
    }
    if (request.predecessorOwner() != null) {
      return stepScript(
          node,
          LuaScript.HANDOFF,
          request,
          null,
          null,
          0,
          () -> NodeScriptCall.handoff(request, Long.toString(request.ttlMillis())),
          NodeReplies::lockReply);
    }
    StepCommands.Encoded set;
    try {
      set =
          steps.get(
              SET,
              request,
              null,
              null,
              0,
              () ->
                  new String[] {
                    SET,
                    request.lockKey(),
                    request.owner(),
                    "NX",
                    "PX",
                    Long.toString(request.ttlMillis())
                  });
    } catch (RuntimeException | Error unencodable) { // a null argument, or no memory
      return CompletableFuture.failedFuture(unencodable);
    }
    return command(node, nodeTimeoutNanos, set, RespNodeDriver::setReply);
  }

  private static final String SET = "SET";

  private static LockReply setReply(@Nullable Object reply) {
    if ("OK".equals(reply)) {
      return new LockReply.Granted(0, false);
    }
    if (reply == null) {
      return new LockReply.Refused(-1, 0, null);
    }
    throw new IllegalStateException("not a SET reply");
  }

  /** Each thread's last step command, sent as is to the step's other nodes. */
  private final StepCommands steps = new StepCommands();

  @SuppressWarnings("unchecked")
  private static List<Object> list(@Nullable Object reply) {
    if (reply instanceof List<?> elements) {
      return (List<Object>) elements;
    }
    throw new IllegalStateException("not an array");
  }

  /** Whether a script's integer reply is 1 (its "yes"). */
  private static boolean isOne(@Nullable Object reply) {
    return ((Long) reply) == 1L;
  }

  @Override
  public CompletableFuture<Boolean> writeToken(
      int node, String lockKey, String fenceKey, String owner, long token) {
    return stepScript(
        node,
        LuaScript.FENCE,
        lockKey,
        fenceKey,
        owner,
        token,
        () -> NodeScriptCall.fence(lockKey, fenceKey, owner, token),
        RespNodeDriver::isOne);
  }

  @Override
  public CompletableFuture<Boolean> lengthen(
      int node, String lockKey, String owner, long ttlMillis) {
    return stepScript(
        node,
        LuaScript.EXTEND,
        lockKey,
        owner,
        null,
        ttlMillis,
        () -> NodeScriptCall.extend(lockKey, owner, ttlMillis),
        RespNodeDriver::isOne);
  }

  @Override
  public CompletableFuture<Boolean> release(
      int node, String lockKey, String owner, @Nullable String announceOn) {
    return stepScript(
        node,
        LuaScript.RELEASE,
        lockKey,
        owner,
        announceOn,
        0,
        () -> NodeScriptCall.release(lockKey, owner, announceOn),
        RespNodeDriver::isOne);
  }

  @Override
  public CompletableFuture<NamingRelease> releaseNamingNext(
      int node, String lockKey, String owner, String announceOn, String namedPrefix, long token) {
    return script(
        node,
        NodeScriptCall.releaseNamingNext(lockKey, owner, announceOn, namedPrefix, token),
        reply -> NamingRelease.ofScriptReply((Long) reply));
  }

  @Override
  public CompletableFuture<Long> announce(int node, String channel, String message) {
    return command(node, nodeTimeoutNanos, reply -> (Long) reply, "PUBLISH", channel, message);
  }

  @Override
  public CompletableFuture<MultiLockReply> lockAll(
      int node, List<String> lockKeys, List<String> fenceKeys, String owner, long ttlMillis) {
    return script(
        node,
        NodeScriptCall.acquireAll(lockKeys, fenceKeys, owner, ttlMillis, markerCheck),
        reply -> NodeReplies.multiLockReply(list(reply)));
  }

  @Override
  public CompletableFuture<Boolean> writeTokens(
      int node, List<String> lockKeys, List<String> fenceKeys, String owner, List<Long> tokens) {
    return script(
        node, NodeScriptCall.fenceAll(lockKeys, fenceKeys, owner, tokens), RespNodeDriver::isOne);
  }

  @Override
  public CompletableFuture<Boolean> lengthenAll(
      int node, List<String> lockKeys, String owner, long ttlMillis) {
    return script(
        node, NodeScriptCall.extendAll(lockKeys, owner, ttlMillis), RespNodeDriver::isOne);
  }

  @Override
  public CompletableFuture<Long> releaseAll(
      int node, List<String> lockKeys, String owner, @Nullable List<String> channels) {
    return script(
        node, NodeScriptCall.releaseAll(lockKeys, owner, channels), reply -> (Long) reply);
  }

  @Override
  public CompletableFuture<NodeMarks> readMarks(int node) {
    return command(
        node,
        nodeTimeoutNanos,
        reply -> {
          List<Object> values = list(reply);
          Object marker = values.get(0);
          Object highWater = values.get(1);
          return new NodeMarks(
              marker != null,
              marker != null ? Long.parseLong((String) marker) : 0,
              highWater != null ? Long.parseLong((String) highWater) : 0);
        },
        "MGET",
        NodeKeys.MARKER,
        NodeKeys.HIGH_WATER);
  }

  @Override
  public CompletableFuture<Boolean> hasMarker(int node) {
    return command(
        node, adminTimeoutNanos, reply -> list(reply).get(0) != null, "MGET", NodeKeys.MARKER);
  }

  @Override
  public CompletableFuture<String> nameEmptyIncarnation(int node, String freshName) {
    return script(
        node,
        adminTimeoutNanos,
        NodeScriptCall.nameEmptyNode(freshName),
        reply -> reply == null ? "" : (String) reply);
  }

  @Override
  public CompletableFuture<InitReply> initialize(
      int node, long epoch, @Nullable String incarnation) {
    return script(
        node,
        adminTimeoutNanos,
        NodeScriptCall.initNode(epoch, incarnation),
        reply -> NodeReplies.initReply(list(reply)));
  }

  @Override
  public CompletableFuture<String> serverId(int node) {
    return command(node, adminTimeoutNanos, NodeReplies::runId, "INFO", "server");
  }

  @Override
  public CompletableFuture<List<String>> settingsWarnings() {
    List<String> labels = new ArrayList<>();
    for (RespConnection connection : nodes) {
      labels.add(connection.label());
    }
    return SettingsAudit.warnings(labels, this::configGet);
  }

  /** One CONFIG GET parameter as a map (empty if the server does not know it). */
  private CompletableFuture<Map<String, String>> configGet(int node, String parameter) {
    return command(
        node,
        nodeTimeoutNanos,
        reply -> {
          List<Object> pairs = list(reply);
          Map<String, String> values = new HashMap<>();
          for (int i = 0; i + 1 < pairs.size(); i += 2) {
            values.put(String.valueOf(pairs.get(i)), String.valueOf(pairs.get(i + 1)));
          }
          return values;
        },
        "CONFIG",
        "GET",
        parameter);
  }

  @Override
  public ReleaseFeed releases() {
    return releases;
  }

  @Override
  public boolean isDriverThread() {
    return threads.isCurrentThreadOwn();
  }

  /**
   * Closes every connection (unanswered requests fail at once), then the I/O thread. Idempotent.
   */
  @Override
  public void close() {
    nodes.forEach(RespConnection::close);
    releases.close();
    loop.close();
  }

  // --- calls ---------------------------------------------------------------------------------

  private <R> CompletableFuture<R> script(
      int node, NodeScriptCall call, Function<@Nullable Object, R> parse) {
    return script(node, nodeTimeoutNanos, call, parse);
  }

  /**
   * Sends {@code call} as EVALSHA ({@link ScriptCall} handles a NOSCRIPT), or as EVAL to a node
   * that refused the scripts' loads ({@link ScriptLoads}).
   */
  private <R> CompletableFuture<R> script(
      int node, long timeoutNanos, NodeScriptCall call, Function<@Nullable Object, R> parse) {
    StepCommands.Encoded encoded;
    try {
      encoded = StepCommands.Encoded.of(loads.get(node).refused() ? eval(call) : evalsha(call));
    } catch (RuntimeException | Error unencodable) { // a null argument, or no memory
      return CompletableFuture.failedFuture(unencodable);
    }
    return script(node, timeoutNanos, call.script(), encoded, parse);
  }

  /**
   * A script call that a step sends to every node: encoded once per step ({@link StepCommands},
   * keyed by {@code script} and the objects and number {@code call} is made from), except as the
   * EVAL for a node that refused the scripts' loads.
   */
  private <R> CompletableFuture<R> stepScript(
      int node,
      LuaScript script,
      Object first,
      @Nullable Object second,
      @Nullable Object third,
      long number,
      Supplier<NodeScriptCall> call,
      Function<@Nullable Object, R> parse) {
    if (loads.get(node).refused()) {
      return script(node, nodeTimeoutNanos, call.get(), parse);
    }
    StepCommands.Encoded encoded;
    try {
      encoded = steps.get(script, first, second, third, number, () -> evalsha(call.get()));
    } catch (RuntimeException | Error unencodable) { // a null argument, or no memory
      return CompletableFuture.failedFuture(unencodable);
    }
    return script(node, nodeTimeoutNanos, script, encoded, parse);
  }

  private <R> CompletableFuture<R> script(
      int node,
      long timeoutNanos,
      LuaScript script,
      StepCommands.Encoded encoded,
      Function<@Nullable Object, R> parse) {
    CompletableFuture<R> result = new CompletableFuture<>();
    RespConnection connection = nodes.get(node);
    send(
        connection,
        new ScriptCall<>(connection, loads.get(node), script, encoded.command(), parse, result),
        result,
        timeoutNanos,
        encoded.bytes(),
        encoded.length());
    return result;
  }

  /** {@code call} as an EVALSHA command. */
  private static String[] evalsha(NodeScriptCall call) {
    return scriptCommand("EVALSHA", call.script().sha1(), call);
  }

  /** {@code call} as an EVAL command. */
  private static String[] eval(NodeScriptCall call) {
    return scriptCommand("EVAL", call.script().source(), call);
  }

  private static String[] scriptCommand(String verb, String script, NodeScriptCall call) {
    String[] keys = call.keys();
    String[] args = call.args();
    String[] command = new String[3 + keys.length + args.length];
    command[0] = verb;
    command[1] = script;
    command[2] =
        keys.length < KEY_COUNTS.length ? KEY_COUNTS[keys.length] : Integer.toString(keys.length);
    System.arraycopy(keys, 0, command, 3, keys.length);
    System.arraycopy(args, 0, command, 3 + keys.length, args.length);
    return command;
  }

  private <R> CompletableFuture<R> command(
      int node, long timeoutNanos, Function<@Nullable Object, R> parse, String... command) {
    StepCommands.Encoded encoded;
    try {
      encoded = StepCommands.Encoded.of(command);
    } catch (RuntimeException | Error unencodable) { // a null argument, or no memory
      return CompletableFuture.failedFuture(unencodable);
    }
    return command(node, timeoutNanos, encoded, parse);
  }

  private <R> CompletableFuture<R> command(
      int node,
      long timeoutNanos,
      StepCommands.Encoded encoded,
      Function<@Nullable Object, R> parse) {
    CompletableFuture<R> result = new CompletableFuture<>();
    send(
        nodes.get(node),
        new CommandCall<>(parse, result),
        result,
        timeoutNanos,
        encoded.bytes(),
        encoded.length());
    return result;
  }

  /**
   * Lock operations are timed out by their connection on the I/O thread (no timer thread, no timer
   * entry per request); the rare administrative calls, whose timeout is longer than the loop's
   * longest sleep, by {@link CompletableFuture#orTimeout}.
   */
  private void send(
      RespConnection connection,
      RespConnection.Call call,
      CompletableFuture<?> result,
      long timeoutNanos,
      byte[] command,
      int length) {
    if (timeoutNanos == nodeTimeoutNanos) {
      connection.send(call, timeoutNanos, command, length);
    } else {
      result.orTimeout(timeoutNanos, TimeUnit.NANOSECONDS);
      connection.send(call, 0, command, length);
    }
  }

  /** A command's reply, parsed as it completes the call (no stage of its own). */
  private static class CommandCall<R> extends RespConnection.Call {
    final Function<@Nullable Object, R> parse;
    final CompletableFuture<R> result;

    CommandCall(Function<@Nullable Object, R> parse, CompletableFuture<R> result) {
      this.parse = parse;
      this.result = result;
    }

    @Override
    void reply(@Nullable Object reply) {
      if (reply instanceof RespError error) {
        result.completeExceptionally(new RespCommandException(error.message()));
        return;
      }
      R parsed;
      try {
        parsed = parse.apply(reply);
      } catch (RuntimeException garbled) {
        result.completeExceptionally(
            new IllegalStateException("unexpected reply " + reply + ": " + garbled, garbled));
        return;
      }
      result.complete(parsed);
    }

    @Override
    void fail(Throwable cause) {
      result.completeExceptionally(cause);
    }
  }

  /**
   * A script's reply. A NOSCRIPT (the node's script cache was flushed behind an open connection)
   * fails a lock step, and loads the script for the next call: a lock step is never sent twice
   * ({@link LuaScript#isLockStep}). Any other script is sent again as an EVAL: a release always (a
   * late one only deletes a key of an owner id nobody uses again), the rest unless the call has
   * given up meanwhile. A lock operation's timeout and its reply are both handled on the I/O
   * thread, so "given up" is decided once; an administrative call (initialize, name an empty
   * incarnation) times out on the JDK's timer thread and may still be sent as EVAL just after: both
   * scripts are idempotent, and they are not lock steps.
   */
  private static final class ScriptCall<R> extends CommandCall<R> {
    private final RespConnection connection;
    private final ScriptLoads loads;
    private final LuaScript script;
    private final String[] command;
    private boolean evalSent;

    ScriptCall(
        RespConnection connection,
        ScriptLoads loads,
        LuaScript script,
        String[] command,
        Function<@Nullable Object, R> parse,
        CompletableFuture<R> result) {
      super(parse, result);
      this.connection = connection;
      this.loads = loads;
      this.script = script;
      this.command = command;
    }

    @Override
    void reply(@Nullable Object reply) {
      if (reply instanceof RespError error && error.isNoScript() && !evalSent) {
        if (script.isLockStep()) {
          // Never sent twice (LuaScript.isLockStep), though this copy ran nothing: the release
          // that undoes it may be on the wire behind it already, and a second copy would lock the
          // node after that release. The script is loaded for the next call; a node that refuses
          // the load gets the next calls as EVAL (ScriptLoads), each sent once too.
          CompletableFuture<Object> loaded = new CompletableFuture<>();
          loaded.whenComplete(
              (sha, failure) -> {
                if (failure instanceof RespCommandException refusal) {
                  loads.refusedWith(refusal.getMessage());
                }
              });
          connection.send(new CommandCall<>(r -> r, loaded), "SCRIPT", "LOAD", script.source());
          super.reply(reply);
          return;
        }
        boolean lateIsHarmless = script == LuaScript.RELEASE || script == LuaScript.RELEASE_ALL;
        if (result.isDone() && !lateIsHarmless) {
          return;
        }
        evalSent = true;
        String[] eval = command.clone();
        eval[0] = "EVAL";
        eval[1] = script.source();
        connection.send(this, eval); // keeps the call's first deadline (RespConnection.send)
        return;
      }
      super.reply(reply);
    }
  }
}
