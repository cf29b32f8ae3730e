package io.fencedlock.redlock.lettuce;

import io.fencedlock.redlock.driver.LuaScript;
import io.fencedlock.redlock.driver.NodeReplies;
import io.fencedlock.redlock.driver.RequestTimer;
import io.fencedlock.redlock.driver.ScriptLoads;
import io.fencedlock.redlock.spi.NodeFailures;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.protocol.ProtocolVersion;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.lettuce.core.resource.ClientResources;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * One Redis master: a single Lettuce connection, opened lazily and reopened after a failed connect,
 * and every request bounded by the per-node timeout. Thread-safe.
 *
 * <p>All requests to a node share one connection, so Redis executes them in the order they were
 * sent. The algorithm relies on that: a release sent after a timed-out acquire reaches the node
 * after it and undoes a grant whose reply was lost.
 */
final class NodeClient implements AutoCloseable {

  private final String label;
  private final RedisURI uri;
  private final io.lettuce.core.RedisClient client;

  /** Bounds requests by the node timeout; shared by the nodes, closed by their owner. */
  private final RequestTimer timer;

  private final AtomicReference<CompletableFuture<StatefulRedisConnection<String, String>>>
      connection = new AtomicReference<>();
  private volatile boolean closed;

  /** Why the last connect failed, to explain "not connected" while the next one is pending. */
  private volatile @Nullable Throwable lastConnectFailure;

  /** Whether the node refused the scripts' loads, so that they go to it as EVAL. */
  private final ScriptLoads loads;

  /**
   * @param timer bounds requests by the node timeout, which it was made with
   */
  NodeClient(
      String uriText, ClientResources resources, RequestTimer timer, Duration connectTimeout) {
    this.timer = timer;
    this.uri = RedisURI.create(uriText);
    this.uri.setTimeout(connectTimeout);
    this.label = uri.getHost() + ":" + uri.getPort();
    this.loads = new ScriptLoads(label);
    this.client = io.lettuce.core.RedisClient.create(resources);
    this.client.setOptions(options(connectTimeout));
  }

  private static ClientOptions options(Duration connectTimeout) {
    return ClientOptions.builder()
        .autoReconnect(true)
        // Fail at once while reconnecting: queued commands would only burn the node timeout.
        .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
        // Never replay a command after a reconnect: it may have run already (a request is sent
        // at most once: the NodeDriver contract), and its caller has given up on it or will.
        .replayFilter(command -> true)
        // RESP2 needs no HELLO handshake, so older servers and other RESP servers work too.
        .protocolVersion(ProtocolVersion.RESP2)
        .socketOptions(SocketOptions.builder().connectTimeout(connectTimeout).build())
        // No timer of Lettuce's per command (its default since 6.x): the RequestTimer bounds
        // lock operations, orTimeout the rare administrative ones; a second timer per command
        // cost a HashedWheelTimer entry, its cancellation and a thread of its own.
        .timeoutOptions(TimeoutOptions.builder().timeoutCommands(false).build())
        .build();
  }

  /** The node's {@code host:port}, never its password. */
  String label() {
    return label;
  }

  /**
   * Opens a separate pub/sub connection (closed with this client), for release notifications.
   * Lettuce resubscribes it after a reconnect.
   */
  CompletableFuture<StatefulRedisPubSubConnection<String, String>> connectPubSub() {
    return client.connectPubSubAsync(StringCodec.UTF8, uri).toCompletableFuture();
  }

  /** Starts connecting if not connected; completes when connected or failed, unbounded. */
  CompletableFuture<Void> connect() {
    return connection().thenApply(c -> null);
  }

  /**
   * Runs a script by EVALSHA, falling back to EVAL when the node does not know it (scripts are
   * loaded on connect, but a flushed script cache forgets them); by EVAL alone on a node that
   * refused the loads ({@link ScriptLoads}). A lock step never falls back (it is never sent twice,
   * see {@link LuaScript#isLockStep}): it fails, and the script is loaded for the next call. Other
   * fallbacks are skipped once the call has timed out, except for release.lua: a late release only
   * deletes a key of an owner id nobody uses again. The reply is turned into the result by {@code
   * parse} as it completes the call (no stage of its own); a reply {@code parse} cannot read fails
   * the call.
   */
  <T, R> CompletableFuture<R> script(
      LuaScript script,
      ScriptOutputType type,
      Function<T, R> parse,
      String[] keys,
      String... args) {
    return script(script, timer.timeoutNanos(), type, parse, keys, args);
  }

  /**
   * The same with its own timeout, for rare administrative writes (marking nodes initialized) that
   * must not give up after a lock operation's tight per-node timeout.
   */
  <T, R> CompletableFuture<R> script(
      LuaScript script,
      Duration timeout,
      ScriptOutputType type,
      Function<T, R> parse,
      String[] keys,
      String... args) {
    return script(script, timeout.toNanos(), type, parse, keys, args);
  }

  private <T, R> CompletableFuture<R> script(
      LuaScript script,
      long timeout,
      ScriptOutputType type,
      Function<T, R> parse,
      String[] keys,
      String... args) {
    return timed(
        timeout,
        (redis, result) -> {
          if (loads.refused()) {
            eval(redis, script, type, parse, keys, args, result);
            return;
          }
          redis
              .<T>evalsha(script.sha1(), type, keys, args)
              .whenComplete(
                  (value, failure) -> {
                    if (failure == null) {
                      completeParsed(result, value, parse);
                    } else if (isNoScript(failure) && script.isLockStep()) {
                      // Never sent twice (LuaScript.isLockStep), though this copy ran nothing:
                      // the release that undoes it may be on the wire behind it already, and a
                      // second copy would lock the node after that release. The script is
                      // loaded for the next call; a node that refuses the load gets the next
                      // calls as EVAL (ScriptLoads), each sent once too.
                      load(redis, script);
                      result.completeExceptionally(failure);
                    } else if (isNoScript(failure)) {
                      fallBackToEval(redis, script, type, parse, keys, args, result);
                    } else {
                      result.completeExceptionally(failure);
                    }
                  });
        });
  }

  /** SCRIPT LOAD, recording an error reply as the node's refusal ({@link ScriptLoads}). */
  private CompletableFuture<String> load(
      RedisAsyncCommands<String, String> redis, LuaScript script) {
    return redis
        .scriptLoad(script.source())
        .toCompletableFuture()
        .whenComplete(
            (sha, failure) -> {
              if (failure instanceof RedisCommandExecutionException refusal) {
                loads.refusedWith(String.valueOf(refusal.getMessage()));
              }
            });
  }

  private static <T, R> void completeParsed(
      CompletableFuture<R> result, T value, Function<T, R> parse) {
    R parsed;
    try {
      parsed = parse.apply(value);
    } catch (RuntimeException garbled) {
      result.completeExceptionally(
          new IllegalStateException("unexpected reply " + value + ": " + garbled, garbled));
      return;
    }
    result.complete(parsed);
  }

  /**
   * Sends the script's EVAL after a NOSCRIPT, unless the call has timed out meanwhile (a late lock
   * step could reach the node after the release meant to undo it; a late release is harmless).
   * Deciding and sending happen under the call's monitor, which the request timer also holds when
   * it times a call out: so either the EVAL goes out first, and the release that follows the
   * timeout reaches the node after it, or the timeout wins and no EVAL is sent.
   */
  private static <T, R> void fallBackToEval(
      RedisAsyncCommands<String, String> redis,
      LuaScript script,
      ScriptOutputType type,
      Function<T, R> parse,
      String[] keys,
      String[] args,
      CompletableFuture<R> result) {
    boolean lateIsHarmless = script == LuaScript.RELEASE || script == LuaScript.RELEASE_ALL;
    synchronized (result) {
      if (result.isDone() && !lateIsHarmless) {
        return;
      }
      eval(redis, script, type, parse, keys, args, result);
    }
  }

  /** Sends the script's EVAL; its reply completes {@code result}. */
  private static <T, R> void eval(
      RedisAsyncCommands<String, String> redis,
      LuaScript script,
      ScriptOutputType type,
      Function<T, R> parse,
      String[] keys,
      String[] args,
      CompletableFuture<R> result) {
    redis
        .<T>eval(script.source(), type, keys, args)
        .whenComplete(
            (value, failure) -> {
              if (failure == null) {
                completeParsed(result, value, parse);
              } else {
                result.completeExceptionally(failure);
              }
            });
  }

  /** Plain {@code SET key value NX PX ttl}, as every Redlock client sends it. */
  CompletableFuture<String> setNxPx(String key, String value, long ttlMillis) {
    // The command's own future, bounded directly: no fallback can follow a SET, so it needs no
    // separate result (Lettuce ignores a reply to a command that was already completed).
    return send(
        redis ->
            timer.bound(
                redis.set(key, value, SetArgs.Builder.nx().px(ttlMillis)).toCompletableFuture()));
  }

  /** One CONFIG GET parameter (Redis before 7 takes one per call); empty if unknown. */
  CompletableFuture<java.util.Map<String, String>> configGet(String parameter) {
    return timed((redis, result) -> redis.configGet(parameter).whenComplete(into(result)));
  }

  /** The server's {@code run_id} from {@code INFO server}, or "" if it does not report one. */
  CompletableFuture<String> runId(Duration timeout) {
    return timed(
            timeout.toNanos(), (redis, result) -> redis.info("server").whenComplete(into(result)))
        .thenApply(NodeReplies::runId);
  }

  /** PUBLISH: how many subscribers received {@code message}. */
  CompletableFuture<Long> publish(String channel, String message) {
    return timed((redis, result) -> redis.publish(channel, message).whenComplete(into(result)));
  }

  CompletableFuture<List<KeyValue<String, String>>> mget(String... keys) {
    return timed((redis, result) -> redis.mget(keys).whenComplete(into(result)));
  }

  /** MGET with its own timeout, for start-up checks that must not give up too early. */
  CompletableFuture<List<KeyValue<String, String>>> mget(Duration timeout, String... keys) {
    return timed(timeout.toNanos(), (redis, result) -> redis.mget(keys).whenComplete(into(result)));
  }

  /**
   * Sends a request at once on the established connection, or fails at once if there is none (and
   * starts connecting). Requests are never parked on a pending connect: dependents of one future
   * run in no guaranteed order, and a release must never overtake its acquire.
   */
  private <T> CompletableFuture<T> timed(
      BiConsumer<RedisAsyncCommands<String, String>, CompletableFuture<T>> request) {
    return timed(timer.timeoutNanos(), request);
  }

  private <T> CompletableFuture<T> timed(
      long timeout, BiConsumer<RedisAsyncCommands<String, String>, CompletableFuture<T>> request) {
    return send(
        redis -> {
          CompletableFuture<T> result =
              timeout == timer.timeoutNanos()
                  ? timer.bound(new CompletableFuture<>())
                  : new CompletableFuture<T>()
                      .orTimeout(timeout, TimeUnit.NANOSECONDS); // rare administrative calls
          request.accept(redis, result);
          return result;
        });
  }

  /**
   * Runs {@code request} on the established connection's commands, or fails at once (see {@link
   * #timed}).
   */
  private <T> CompletableFuture<T> send(
      Function<RedisAsyncCommands<String, String>, CompletableFuture<T>> request) {
    CompletableFuture<StatefulRedisConnection<String, String>> current = connection();
    if (!current.isDone() || current.isCompletedExceptionally()) {
      return CompletableFuture.failedFuture(notConnected(current));
    }
    return request.apply(current.join().async());
  }

  /**
   * Why a request cannot be sent: {@code current}, from {@link #connection()}, is pending (a new
   * connect after a failed one; the failure before it is the reason) or failed (closed).
   */
  private RedisConnectionException notConnected(CompletableFuture<?> current) {
    Throwable last = current.isDone() ? failureOf(current) : lastConnectFailure;
    return new RedisConnectionException(
        "not connected to " + label + (last == null ? " yet" : ": " + NodeFailures.describe(last)));
  }

  private static <T> BiConsumer<T, Throwable> into(CompletableFuture<T> result) {
    return (value, failure) -> {
      if (failure == null) {
        result.complete(value);
      } else {
        result.completeExceptionally(failure);
      }
    };
  }

  private static Throwable failureOf(CompletableFuture<?> failed) {
    try {
      failed.join();
      throw new IllegalStateException("not failed");
    } catch (java.util.concurrent.CompletionException
        | java.util.concurrent.CancellationException e) {
      return NodeFailures.unwrap(e);
    }
  }

  /** The current connection attempt, or a fresh one if the last attempt failed. */
  private CompletableFuture<StatefulRedisConnection<String, String>> connection() {
    while (true) {
      CompletableFuture<StatefulRedisConnection<String, String>> current = connection.get();
      if (current != null && !current.isCompletedExceptionally()) {
        return current;
      }
      if (closed) {
        return current;
      }
      CompletableFuture<StatefulRedisConnection<String, String>> next = new CompletableFuture<>();
      if (connection.compareAndSet(current, next)) {
        client
            .connectAsync(StringCodec.UTF8, uri)
            .thenCompose(this::loadScripts)
            .whenComplete(
                (c, failure) -> {
                  lastConnectFailure = failure == null ? null : NodeFailures.unwrap(failure);
                  into(next).accept(c, failure);
                });
        return next;
      }
    }
  }

  /**
   * Loads every script before the connection is used, so that the first call of a script on a node
   * does not answer NOSCRIPT: under load that answer can come after the node timeout, when the EVAL
   * fallback is skipped, and a cleanup lost that way leaves its key until the TTL. A node's refusal
   * makes every later script call to it an EVAL ({@link ScriptLoads}); other failures are ignored
   * (EVALSHA falls back to EVAL); the wait is bounded by the connect timeout.
   */
  private CompletionStage<StatefulRedisConnection<String, String>> loadScripts(
      StatefulRedisConnection<String, String> c) {
    CompletableFuture<?>[] loads =
        LuaScript.ALL.stream()
            .map(script -> load(c.async(), script))
            .toArray(CompletableFuture[]::new);
    return CompletableFuture.allOf(loads)
        .orTimeout(uri.getTimeout().toNanos(), TimeUnit.NANOSECONDS)
        .handle((loaded, failure) -> c);
  }

  private static boolean isNoScript(Throwable e) {
    Throwable cause = NodeFailures.unwrap(e);
    return cause.getMessage() != null && cause.getMessage().startsWith("NOSCRIPT");
  }

  @Override
  public void close() {
    closed = true;
    connection.set(CompletableFuture.failedFuture(new IllegalStateException("closed")));
    client.shutdown(0, 1, TimeUnit.SECONDS); // closes the connection too
  }

  @Override
  public String toString() {
    return label;
  }
}
