package io.fencedlock.redlock.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.awaitility.Awaitility.await;

import io.fencedlock.redlock.RedlockConfig;
import io.fencedlock.redlock.driver.LuaScript;
import io.fencedlock.redlock.spi.InitReply;
import io.fencedlock.redlock.spi.LockReply;
import io.fencedlock.redlock.spi.LockRequest;
import io.fencedlock.redlock.spi.MultiLockReply;
import io.fencedlock.redlock.spi.NodeFailures;
import io.fencedlock.redlock.spi.NodeMarks;
import io.fencedlock.testkit.RedisNode;
import io.fencedlock.testkit.RedisNodes;
import io.fencedlock.testkit.support.Timing;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The RESP driver against real nodes, held to the {@link io.fencedlock.redlock.spi.NodeDriver}
 * contract: replies reach their own requests, failures complete every future, and the driver
 * recovers when a node comes back. Uses only the driver's public API and a direct connection.
 */
final class RespNodeDriverIT {

  /** Long enough that a request fails by the fault under test, not by its timeout. */
  private static final Duration PATIENT = Timing.AWAIT;

  private static final long TTL = 60_000;

  private static RespNodeDriver driver(List<String> uris, Duration nodeTimeout) {
    RespNodeDriver driver =
        RespNodeDriver.open(
            RedlockConfig.builder()
                .nodes(uris)
                .nodeTimeout(nodeTimeout)
                .connectTimeout(Duration.ofSeconds(2))
                .build());
    driver.connect(Timing.AWAIT);
    return driver;
  }

  /** Waits (bounded) until a plain lock of {@code key} for {@code owner} is granted. */
  private static void awaitGranted(RespNodeDriver driver, String key, String owner) {
    await()
        .atMost(Timing.AWAIT)
        .pollInterval(Timing.POLL)
        .ignoreExceptions()
        .untilAsserted(
            () ->
                assertThat(driver.lock(0, plain(key, owner)).get())
                    .isEqualTo(new LockReply.Granted(0, false)));
  }

  /** Waits (bounded) until no thread of a driver is left beyond those in {@code before}. */
  private static void awaitDriverThreadsGone(Set<Thread> before) {
    await()
        .atMost(Timing.AWAIT)
        .pollInterval(Timing.POLL)
        .untilAsserted(() -> assertThat(driverThreads()).isSubsetOf(before));
  }

  private static LockRequest plain(String key, String owner) {
    return new LockRequest(key, null, owner, TTL, 0, null);
  }

  private static <T> T get(CompletableFuture<T> future) {
    try {
      return future.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw new AssertionError("request failed: " + NodeFailures.describe(e.getCause()), e);
    } catch (InterruptedException | TimeoutException e) {
      throw new AssertionError("request did not complete", e);
    }
  }

  /** The failure of a future that must fail; waits for it within a bound (it must not hang). */
  private static Throwable failure(CompletableFuture<?> future) {
    try {
      Object value = future.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS);
      throw new AssertionError("expected a failure, got " + value);
    } catch (ExecutionException e) {
      return NodeFailures.unwrap(e);
    } catch (InterruptedException | TimeoutException e) {
      throw new AssertionError("the request hung", e);
    }
  }

  /** Commands pipelined on a fresh connection of their own, with their replies in order. */
  private static List<Object> direct(int port, List<String[]> commands) {
    try (Socket socket = new Socket("127.0.0.1", port)) {
      socket.setSoTimeout((int) Timing.AWAIT.toMillis());
      int size = 0;
      for (String[] command : commands) {
        size += RespWriter.maxSize(command);
      }
      ByteBuffer out = ByteBuffer.allocate(size);
      commands.forEach(command -> RespWriter.encode(command, out));
      OutputStream output = socket.getOutputStream();
      output.write(out.array(), 0, out.position());
      output.flush();
      InputStream input = socket.getInputStream();
      List<Object> replies = new ArrayList<>();
      ByteBuffer in = ByteBuffer.allocate(64 * 1024);
      while (replies.size() < commands.size()) {
        if (!in.hasRemaining()) {
          ByteBuffer larger = ByteBuffer.allocate(in.capacity() * 2);
          in.flip();
          larger.put(in);
          in = larger;
        }
        int read = input.read(in.array(), in.position(), in.remaining());
        if (read < 0) {
          throw new IOException("closed by the node after " + replies.size() + " replies");
        }
        in.position(in.position() + read).flip();
        Object reply;
        while (in.hasRemaining() && (reply = RespReader.read(in)) != RespReader.INCOMPLETE) {
          replies.add(reply);
        }
        in.compact();
      }
      return replies;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static @Nullable Object direct(int port, String... command) {
    return direct(port, List.<String[]>of(command)).get(0);
  }

  // --- round trips ---------------------------------------------------------------------------

  @Test
  void everyCall_roundTripsOnARealNode() {
    try (RedisNodes nodes = RedisNodes.start(1);
        RespNodeDriver driver = driver(nodes.uris(), PATIENT)) {
      RedisNode node = nodes.node(0);
      assertThat(driver.size()).isEqualTo(1);
      assertThat(driver.label(0)).isEqualTo("127.0.0.1:" + node.port());

      assertThat(get(driver.hasMarker(0))).isFalse();
      assertThat(get(driver.readMarks(0))).isEqualTo(new NodeMarks(false, 0, 0));
      String name = get(driver.nameEmptyIncarnation(0, "fresh-1"));
      assertThat(name).isEqualTo("fresh-1");
      assertThat(get(driver.nameEmptyIncarnation(0, "fresh-2"))).as("named once").isEqualTo(name);
      assertThat(get(driver.initialize(0, 5, "other")).outcome())
          .isEqualTo(InitReply.Outcome.OTHER_INCARNATION);
      assertThat(get(driver.initialize(0, 5, name)))
          .isEqualTo(new InitReply(InitReply.Outcome.SET, 5));
      assertThat(get(driver.initialize(0, 9, null)))
          .isEqualTo(new InitReply(InitReply.Outcome.ALREADY_INITIALIZED, 5));
      assertThat(get(driver.hasMarker(0))).isTrue();
      assertThat(get(driver.readMarks(0))).isEqualTo(new NodeMarks(true, 5, 5));
      assertThat(get(driver.nameEmptyIncarnation(0, "fresh-3"))).isEmpty();

      // Fenced: acquire.lua, fence.lua, extend.lua, release.lua.
      LockRequest fenced = new LockRequest("rt:lock", "rt:fence", "alice", TTL, 0, null);
      // No counter yet: the marker's epoch is the floor.
      assertThat(get(driver.lock(0, fenced))).isEqualTo(new LockReply.Granted(5, false));
      assertThat(get(driver.lock(0, fenced)))
          .as("delivered twice")
          .isEqualTo(new LockReply.Granted(5, false));
      assertThat(get(driver.lock(0, new LockRequest("rt:lock", "rt:fence", "bob", TTL, 0, null))))
          .isInstanceOfSatisfying(
              LockReply.Refused.class,
              r -> {
                assertThat(r.holder()).isEqualTo("alice");
                assertThat(r.counter()).isEqualTo(5);
                assertThat(r.pttlMillis()).isPositive();
              });
      assertThat(get(driver.lock(0, new LockRequest("rt:other", "rt:fence2", "bob", TTL, 6, null))))
          .as("a predicted token above the counter is written")
          .isEqualTo(new LockReply.Granted(6, true));
      assertThat(get(driver.release(0, "rt:other", "bob", null))).isTrue();
      assertThat(get(driver.writeToken(0, "rt:lock", "rt:fence", "bob", 7))).isFalse();
      assertThat(get(driver.writeToken(0, "rt:lock", "rt:fence", "alice", 7))).isTrue();
      assertThat(direct(node.port(), "GET", "rt:fence")).isEqualTo("7");
      assertThat(get(driver.readMarks(0))).isEqualTo(new NodeMarks(true, 5, 7));
      assertThat(get(driver.lengthen(0, "rt:lock", "bob", 10 * TTL))).isFalse();
      assertThat(get(driver.lengthen(0, "rt:lock", "alice", 10 * TTL))).isTrue();
      assertThat((Long) direct(node.port(), "PTTL", "rt:lock")).isGreaterThan(TTL);
      assertThat(get(driver.release(0, "rt:lock", "bob", null))).isFalse();
      assertThat(get(driver.release(0, "rt:lock", "alice", null))).isTrue();
      assertThat(direct(node.port(), "EXISTS", "rt:lock")).isEqualTo(0L);

      // Unfenced: a plain SET NX PX.
      assertThat(get(driver.lock(0, plain("rt:plain", "carol"))))
          .isEqualTo(new LockReply.Granted(0, false));
      assertThat(get(driver.lock(0, plain("rt:plain", "dave"))))
          .isEqualTo(new LockReply.Refused(-1, 0, null));
      assertThat(direct(node.port(), "GET", "rt:plain")).isEqualTo("carol");

      String info = (String) direct(node.port(), "INFO", "server");
      String runId =
          info.lines().filter(l -> l.startsWith("run_id:")).findFirst().orElseThrow().substring(7);
      assertThat(get(driver.serverId(0))).isEqualTo(runId.strip());

      direct(node.port(), "CONFIG", "SET", "appendonly", "no");
      assertThat(get(driver.settingsWarnings()))
          .anySatisfy(w -> assertThat(w).contains(driver.label(0)));
    }
  }

  @Test
  void severalResources_roundTripOnARealNode() {
    try (RedisNodes nodes = RedisNodes.start(1);
        RespNodeDriver driver = driver(nodes.uris(), PATIENT)) {
      int port = nodes.node(0).port();
      List<String> locks = List.of("multi:a", "multi:b");
      List<String> fences = List.of("multi:fa", "multi:fb");
      assertThat(get(driver.lockAll(0, locks, fences, "alice", TTL)))
          .isInstanceOf(MultiLockReply.Uninitialized.class);
      get(driver.initialize(0, 2, null));
      direct(port, "SET", "multi:fb", "9");

      assertThat(get(driver.lockAll(0, locks, fences, "alice", TTL)))
          .isEqualTo(new MultiLockReply.Granted(List.of(2L, 9L)));
      assertThat(get(driver.lockAll(0, List.of("multi:c", "multi:b"), fences, "bob", TTL)))
          .isInstanceOfSatisfying(
              MultiLockReply.Refused.class,
              r -> {
                assertThat(r.index()).isEqualTo(1);
                assertThat(r.holder()).isEqualTo("alice");
              });
      assertThat(direct(port, "EXISTS", "multi:c")).as("all or nothing").isEqualTo(0L);
      assertThat(get(driver.writeTokens(0, locks, fences, "bob", List.of(10L, 11L)))).isFalse();
      assertThat(get(driver.writeTokens(0, locks, fences, "alice", List.of(10L, 11L)))).isTrue();
      assertThat(direct(port, "MGET", "multi:fa", "multi:fb")).isEqualTo(List.of("10", "11"));
      assertThat(get(driver.readMarks(0))).isEqualTo(new NodeMarks(true, 2, 11));
      assertThat(get(driver.lengthenAll(0, locks, "bob", 10 * TTL))).isFalse();
      assertThat(get(driver.lengthenAll(0, locks, "alice", 10 * TTL))).isTrue();
      assertThat((Long) direct(port, "PTTL", "multi:b")).isGreaterThan(TTL);
      assertThat(get(driver.releaseAll(0, locks, "bob", null))).isZero();
      assertThat(get(driver.releaseAll(0, locks, "alice", List.of("multi:ca", "multi:cb"))))
          .isEqualTo(2L);
      assertThat(direct(port, "EXISTS", "multi:a", "multi:b")).isEqualTo(0L);
    }
  }

  /**
   * A step's command is encoded once per thread and sent as is to the step's other nodes ({@link
   * StepCommands}): each call here differs from the one before it on the same thread in one part
   * only, and must still reach its node as itself; a call the same as the one before (the same
   * objects) must reach its node too.
   */
  @Test
  void consecutiveCallsDifferingInOnePart_eachReachesItsNodeAsItself() {
    try (RedisNodes nodes = RedisNodes.start(2);
        RespNodeDriver driver = driver(nodes.uris(), PATIENT)) {
      int first = nodes.node(0).port();
      int second = nodes.node(1).port();
      get(driver.initialize(0, 1, null));
      get(driver.initialize(1, 1, null));
      String lock = "step:lock";
      String fence = "step:fence";

      // acquire.lua: the same request to both nodes, then one that differs in its token only.
      LockRequest both = new LockRequest(lock, fence, "alice", TTL, 3, null);
      assertThat(get(driver.lock(0, both))).isEqualTo(new LockReply.Granted(3, true));
      assertThat(get(driver.lock(1, both))).isEqualTo(new LockReply.Granted(3, true));
      get(driver.release(0, lock, "alice", null));
      get(driver.release(1, lock, "alice", null));
      LockRequest three = new LockRequest(lock, fence, "bob", TTL, 3, null);
      LockRequest four = new LockRequest(lock, fence, "bob", TTL, 4, null);
      assertThat(get(driver.lock(0, three))).isEqualTo(new LockReply.Granted(3, false));
      assertThat(get(driver.lock(1, four))).isEqualTo(new LockReply.Granted(4, true));
      assertThat(direct(second, "GET", fence)).isEqualTo("4");

      // fence.lua, differing in the token; extend.lua, in the TTL.
      assertThat(get(driver.writeToken(0, lock, fence, "bob", 7))).isTrue();
      assertThat(get(driver.writeToken(1, lock, fence, "bob", 8))).isTrue();
      assertThat(direct(first, "GET", fence)).isEqualTo("7");
      assertThat(direct(second, "GET", fence)).isEqualTo("8");
      assertThat(get(driver.lengthen(0, lock, "bob", 10 * TTL))).isTrue();
      assertThat(get(driver.lengthen(1, lock, "bob", 20 * TTL))).isTrue();
      assertThat((Long) direct(first, "PTTL", lock)).isBetween(TTL, 10 * TTL);
      assertThat((Long) direct(second, "PTTL", lock)).isGreaterThan(10 * TTL);

      // release.lua, differing in the owner, then in the channel announced on.
      direct(first, "SET", "step:other", "carol");
      direct(second, "SET", "step:other", "dave");
      assertThat(get(driver.release(0, "step:other", "carol", null))).isTrue();
      assertThat(get(driver.release(1, "step:other", "dave", null))).isTrue();
      direct(second, "CONFIG", "RESETSTAT");
      direct(first, "SET", "step:other", "erin");
      direct(second, "SET", "step:other", "erin");
      assertThat(get(driver.release(0, "step:other", "erin", null))).isTrue();
      assertThat(get(driver.release(1, "step:other", "erin", "step:channel"))).isTrue();
      assertThat((String) direct(second, "INFO", "commandstats")).contains("cmdstat_publish:");

      // A plain SET NX PX, differing in the owner.
      assertThat(get(driver.lock(0, plain("step:plain", "frank"))))
          .isEqualTo(new LockReply.Granted(0, false));
      assertThat(get(driver.lock(1, plain("step:plain", "grace"))))
          .isEqualTo(new LockReply.Granted(0, false));
      assertThat(direct(second, "GET", "step:plain")).isEqualTo("grace");
    }
  }

  @Test
  void connect_loadsEveryScript() {
    try (RedisNodes nodes = RedisNodes.start(1)) {
      direct(nodes.node(0).port(), "SCRIPT", "FLUSH");
      try (RespNodeDriver driver = driver(nodes.uris(), PATIENT)) {
        for (LuaScript script : LuaScript.ALL) {
          assertThat(direct(nodes.node(0).port(), "SCRIPT", "EXISTS", script.sha1()))
              .as(script.name())
              .isEqualTo(List.of(1L));
        }
      }
    }
  }

  @Test
  void
      scriptFlushBehindAnOpenConnection_lockStepFailsAndLoadsTheScript_otherScriptsFallBackToEval() {
    try (RedisNodes nodes = RedisNodes.start(1);
        RespNodeDriver driver = driver(nodes.uris(), PATIENT)) {
      int port = nodes.node(0).port();
      get(driver.initialize(0, 1, null));
      direct(port, "SCRIPT", "FLUSH");

      // A lock step is never sent twice (NodeDriver): NOSCRIPT fails it, and nothing is locked.
      LockRequest fenced = new LockRequest("flush:lock", "flush:fence", "alice", TTL, 0, null);
      assertThat(NodeFailures.describe(failure(driver.lock(0, fenced)))).startsWith("NOSCRIPT");
      assertThat(direct(port, "GET", "flush:lock")).isNull();
      // The driver loaded the script again on the same connection: the next lock step runs.
      assertThat(get(driver.lock(0, fenced))).isInstanceOf(LockReply.Granted.class);
      assertThat(direct(port, "GET", "flush:lock")).isEqualTo("alice");

      // Other scripts go again as EVAL (a late extend or release cannot take a key).
      direct(port, "SCRIPT", "FLUSH");
      assertThat(get(driver.lengthen(0, "flush:lock", "alice", TTL))).isTrue();
      assertThat(get(driver.release(0, "flush:lock", "alice", null))).isTrue();
      assertThat(direct(port, "GET", "flush:lock")).isNull();
      assertThat(get(driver.readMarks(0)).initialized()).isTrue();
    }
  }

  @Test
  void largeAndNonAsciiValues_roundTrip() {
    // 3 bytes a char and a surrogate pair: over 200 KB, so the reply that names it as the holder
    // outgrows the driver's first read buffer and arrives in several reads.
    String owner = "€".repeat(70_000) + "-\uD834\uDD1E-zürich";
    try (RedisNodes nodes = RedisNodes.start(1);
        RespNodeDriver driver = driver(nodes.uris(), PATIENT)) {
      get(driver.initialize(0, 1, null));
      assertThat(get(driver.lock(0, new LockRequest("big:lock", "big:fence", owner, TTL, 0, null))))
          .isInstanceOf(LockReply.Granted.class);
      assertThat(direct(nodes.node(0).port(), "GET", "big:lock")).isEqualTo(owner);
      for (int i = 0; i < 3; i++) {
        assertThat(
                get(driver.lock(0, new LockRequest("big:lock", "big:fence", "bob", TTL, 0, null))))
            .isInstanceOfSatisfying(
                LockReply.Refused.class, r -> assertThat(r.holder()).isEqualTo(owner));
      }
      assertThat(get(driver.lengthen(0, "big:lock", owner, TTL))).isTrue();
      assertThat(get(driver.release(0, "big:lock", owner, null))).isTrue();
      assertThat(get(driver.lock(0, plain("big:plain", owner))))
          .isEqualTo(new LockReply.Granted(0, false));
      assertThat(direct(nodes.node(0).port(), "GET", "big:plain")).isEqualTo(owner);
    }
  }

  @Test
  void scriptFlush_aLockStepAnsweredNoScriptIsNotSentAgainBehindLaterRequests() {
    try (RedisNodes nodes = RedisNodes.start(1);
        RespNodeDriver driver = driver(nodes.uris(), PATIENT)) {
      int port = nodes.node(0).port();
      get(driver.initialize(0, 1, null));
      direct(port, "SCRIPT", "FLUSH");
      // alice's EVALSHA is answered NOSCRIPT; an EVAL sent then would run after bob's SET NX, sent
      // right behind it (as the algorithm sends a release right behind a lock step), and take a
      // key that request was meant to find. So alice's lock step fails, and bob gets the key.
      CompletableFuture<LockReply> alice =
          driver.lock(0, new LockRequest("order:lock", "order:fence", "alice", TTL, 0, null));
      CompletableFuture<LockReply> bob = driver.lock(0, plain("order:lock", "bob"));
      assertThat(NodeFailures.describe(failure(alice))).startsWith("NOSCRIPT");
      assertThat(get(bob)).isInstanceOf(LockReply.Granted.class);
      assertThat(direct(port, "GET", "order:lock")).isEqualTo("bob");
    }
  }

  @Test
  void aCommandThatCannotBeEncoded_failsAlone_andLaterRepliesReachTheirOwnCalls() {
    try (RedisNodes nodes = RedisNodes.start(1);
        RespNodeDriver driver = driver(nodes.uris(), PATIENT)) {
      get(driver.initialize(0, 1, null));
      // A null argument fails while encoding. Queued before encoding, its call would wait for a
      // reply that never comes, and take the next command's reply instead: every reply after it
      // would reach the call before its own.
      @SuppressWarnings("NullAway")
      LockRequest unencodable = new LockRequest("enc:lock", null, null, TTL, 0, null);
      CompletableFuture<LockReply> broken;
      try {
        broken = driver.lock(0, unencodable);
      } catch (RuntimeException thrown) {
        broken = CompletableFuture.failedFuture(thrown);
      }
      assertThat(broken).isCompletedExceptionally();

      assertThat(get(driver.lock(0, plain("enc:other", "alice"))))
          .isEqualTo(new LockReply.Granted(0, false));
      assertThat(get(driver.lock(0, plain("enc:other", "bob"))))
          .isInstanceOf(LockReply.Refused.class);
      assertThat(get(driver.readMarks(0)).initialized()).isTrue();
    }
  }

  /**
   * The connection's own guard: a command whose bytes cannot be buffered fails alone, with nothing
   * of it written or queued, and the next command on the same socket gets its own reply.
   */
  @Test
  void aCommandThatCannotBeBuffered_failsAlone_andTheConnectionStaysAligned() {
    try (RedisNodes nodes = RedisNodes.start(1);
        IoLoop loop = new IoLoop(Thread::new, PATIENT.toNanos())) {
      RespConnection connection =
          new RespConnection(
              NodeEndpoint.of(nodes.uris().get(0)),
              loop,
              PATIENT,
              List.of(),
              error -> {},
              reply -> false,
              ready -> {});
      try {
        get(connection.whenReady());
        byte[] ping = RespWriter.encode(new String[] {"PING"});
        CompletableFuture<Object> unbuffered = new CompletableFuture<>();
        // A length past the array's end: the copy into the write buffer throws before writing.
        connection.send(futureCall(unbuffered), 0, ping, ping.length + 1);
        assertThat(failure(unbuffered)).isInstanceOf(IndexOutOfBoundsException.class);
        CompletableFuture<Object> echoed = new CompletableFuture<>();
        connection.send(futureCall(echoed), 0, "ECHO", "aligned");
        assertThat(get(echoed)).isEqualTo("aligned");
      } finally {
        connection.close();
      }
    }
  }

  private static RespConnection.Call futureCall(CompletableFuture<Object> future) {
    return new RespConnection.Call() {
      @Override
      void reply(@Nullable Object reply) {
        future.complete(reply);
      }

      @Override
      void fail(Throwable cause) {
        future.completeExceptionally(cause);
      }
    };
  }

  // --- faults --------------------------------------------------------------------------------

  @Test
  void killedNode_failsEveryPendingRequestNamingTheNode_andIsUsedAgainAfterItsRestart() {
    try (RedisNodes nodes = RedisNodes.start(1);
        RespNodeDriver driver = driver(nodes.uris(), PATIENT)) {
      RedisNode node = nodes.node(0);
      get(driver.lock(0, plain("kill:warm", "a")));
      // Paused first, so that the requests are surely pending (sent, unanswered) at the kill.
      node.pause();
      List<CompletableFuture<?>> pending = new ArrayList<>();
      for (int i = 0; i < 50; i++) {
        pending.add(driver.lock(0, plain("kill:" + i, "a")));
        pending.add(driver.readMarks(0));
        pending.add(driver.release(0, "kill:" + i, "a", null));
      }
      node.kill();

      for (CompletableFuture<?> request : pending) {
        assertThat(failure(request))
            .isNotInstanceOf(TimeoutException.class)
            .satisfies(e -> assertThat(NodeFailures.describe(e)).contains(driver.label(0)));
      }

      node.restart();
      // No request is needed to trigger the reconnect, but requests fail until it is done.
      awaitGranted(driver, "kill:after", "b");
      assertThat(direct(node.port(), "GET", "kill:after")).isEqualTo("b");
    }
  }

  @Test
  void pausedNode_timesOutLockRequests_andLateRepliesDoNotReachLaterRequests() {
    Duration nodeTimeout = Duration.ofMillis(300);
    try (RedisNodes nodes = RedisNodes.start(1);
        RespNodeDriver driver = driver(nodes.uris(), nodeTimeout)) {
      RedisNode node = nodes.node(0);
      int port = node.port();
      get(driver.initialize(0, 3, null));
      get(driver.lock(0, new LockRequest("fifo:lock", "fifo:fence", "x", TTL, 0, null)));
      get(driver.writeToken(0, "fifo:lock", "fifo:fence", "x", 11));

      node.pause();
      // Each reply that comes late differs from the reply due to the request sent after resume.
      CompletableFuture<LockReply> setByA = driver.lock(0, plain("fifo:a", "alice"));
      CompletableFuture<NodeMarks> marks = driver.readMarks(0);
      CompletableFuture<Boolean> released = driver.release(0, "fifo:lock", "x", null);
      CompletableFuture<LockReply> setByB = driver.lock(0, plain("fifo:b", "bob"));
      for (CompletableFuture<?> late : List.of(setByA, marks, released, setByB)) {
        assertThat(failure(late)).isInstanceOf(TimeoutException.class);
      }
      node.resume();

      // Sent after the resume: the node ran the timed-out requests first, so the lock key is
      // gone, fifo:a is alice's, and these replies are their own, not the late ones.
      assertThat(get(driver.lock(0, plain("fifo:a", "carol"))))
          .isEqualTo(new LockReply.Refused(-1, 0, null));
      assertThat(get(driver.release(0, "fifo:a", "carol", null))).isFalse();
      assertThat(get(driver.readMarks(0))).isEqualTo(new NodeMarks(true, 3, 11));
      assertThat(get(driver.lock(0, plain("fifo:c", "dave"))))
          .isEqualTo(new LockReply.Granted(0, false));
      assertThat(get(driver.lengthen(0, "fifo:lock", "x", TTL))).isFalse();
      assertThat(direct(port, "MGET", "fifo:a", "fifo:b", "fifo:lock"))
          .isEqualTo(Arrays.asList("alice", "bob", null));
    }
  }

  /**
   * @param outlastTheTimeout whether the node stays paused until the first request has timed out
   *     (so the late replies meet timed-out calls), or resumes as soon as all are sent
   */
  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void largePipelineToAPausedNode_isWrittenLater_andEveryReplyIsItsOwn(boolean outlastTheTimeout) {
    int requests = 6_000;
    String padding = "p".repeat(4096); // 6,000 x 4 KiB: far more than the sockets' buffers
    try (RedisNodes nodes = RedisNodes.start(1);
        RespNodeDriver driver = driver(nodes.uris(), Duration.ofSeconds(2))) {
      RedisNode node = nodes.node(0);
      int port = node.port();
      List<String[]> taken = new ArrayList<>();
      for (int i = 0; i < requests; i += 3) {
        taken.add(new String[] {"SET", "big:" + i, "other"});
      }
      direct(port, taken);

      node.pause();
      List<CompletableFuture<LockReply>> replies = new ArrayList<>();
      for (int i = 0; i < requests; i++) {
        replies.add(driver.lock(0, plain("big:" + i, "owner-" + i + "-" + padding)));
      }
      if (outlastTheTimeout) {
        assertThat(failure(replies.get(0))).isInstanceOf(TimeoutException.class);
      }
      node.resume();

      int answered = 0;
      for (int i = 0; i < requests; i++) {
        CompletableFuture<LockReply> reply = replies.get(i);
        try {
          LockReply value = reply.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS);
          answered++;
          assertThat(value)
              .as("reply %d", i)
              .isEqualTo(
                  i % 3 == 0
                      ? new LockReply.Refused(-1, 0, null)
                      : new LockReply.Granted(0, false));
        } catch (ExecutionException e) {
          assertThat(NodeFailures.unwrap(e))
              .as("request %d", i)
              .isInstanceOf(TimeoutException.class);
        } catch (InterruptedException | TimeoutException e) {
          throw new AssertionError("request " + i + " hung", e);
        }
      }
      // Behind every earlier request on the connection: once this is answered, all of them ran.
      assertThat(get(driver.lock(0, plain("big:last", "last"))))
          .isEqualTo(new LockReply.Granted(0, false));

      for (int from = 0; from < requests; from += 500) {
        List<String[]> reads = new ArrayList<>();
        for (int i = from; i < Math.min(requests, from + 500); i++) {
          reads.add(new String[] {"GETRANGE", "big:" + i, "0", "20"});
        }
        List<Object> owners = direct(port, reads);
        for (int i = from; i < Math.min(requests, from + 500); i++) {
          String expected = i % 3 == 0 ? "other" : ("owner-" + i + "-" + padding).substring(0, 21);
          assertThat(owners.get(i - from)).as("big:%d", i).isEqualTo(expected);
        }
      }
      // Not asserted (it depends on scheduling), but shows whether the pause outlasted the timeout.
      System.out.printf("large pipeline: %d of %d answered in time%n", answered, requests);
    }
  }

  @Test
  void thousandsInFlightFromSeveralThreads_eachGetTheirOwnReply() throws Exception {
    int threads = 4;
    int perThread = 2_500;
    try (RedisNodes nodes = RedisNodes.start(1);
        RespNodeDriver driver = driver(nodes.uris(), PATIENT)) {
      int port = nodes.node(0).port();
      List<String[]> taken = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        for (int i = 0; i < perThread; i += 4) {
          taken.add(new String[] {"SET", "many:" + t + ":" + i, "other"});
        }
      }
      direct(port, taken);

      ExecutorService senders = Executors.newFixedThreadPool(threads);
      try {
        List<Future<List<CompletableFuture<LockReply>>>> sent = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
          int thread = t;
          sent.add(
              senders.submit(
                  () -> {
                    List<CompletableFuture<LockReply>> mine = new ArrayList<>();
                    for (int i = 0; i < perThread; i++) {
                      String key = "many:" + thread + ":" + i;
                      mine.add(driver.lock(0, plain(key, "owner-" + thread + "-" + i)));
                    }
                    return mine;
                  }));
        }
        for (int t = 0; t < threads; t++) {
          List<CompletableFuture<LockReply>> mine =
              sent.get(t).get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS);
          List<String[]> reads = new ArrayList<>();
          for (int i = 0; i < perThread; i++) {
            assertThat(get(mine.get(i)))
                .as("thread %d request %d", t, i)
                .isEqualTo(
                    i % 4 == 0
                        ? new LockReply.Refused(-1, 0, null)
                        : new LockReply.Granted(0, false));
            reads.add(new String[] {"GET", "many:" + t + ":" + i});
          }
          List<Object> owners = direct(port, reads);
          for (int i = 0; i < perThread; i++) {
            assertThat(owners.get(i))
                .as("many:%d:%d", t, i)
                .isEqualTo(i % 4 == 0 ? "other" : "owner-" + t + "-" + i);
          }
        }
      } finally {
        senders.shutdownNow();
      }
    }
  }

  @Test
  void nodePausedWhileConnecting_connectTimesOut_andTheNodeIsUsedOnceItResumes() {
    try (RedisNodes nodes = RedisNodes.start(1)) {
      RedisNode node = nodes.node(0);
      node.pause(); // the kernel accepts the connection; AUTH-less handshake goes unanswered
      try (RespNodeDriver driver = driver(nodes.uris(), PATIENT)) {
        assertThat(NodeFailures.describe(failure(driver.lock(0, plain("slow:a", "a")))))
            .contains(driver.label(0));
        node.resume();
        awaitGranted(driver, "slow:b", "b");
        assertThat(get(driver.readMarks(0))).isEqualTo(new NodeMarks(false, 0, 0));
      }
    }
  }

  @Test
  void aServerThatIsNotRedis_failsRequestsAsGarbled_neverHangs() throws Exception {
    try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      Thread answering =
          new Thread(
              () -> {
                while (!server.isClosed()) {
                  try (Socket client = server.accept()) {
                    client.getOutputStream().write("HTTP/1.1 400 Bad Request\r\n\r\n".getBytes());
                    client.getOutputStream().flush();
                    // Held open until the driver drops it: the garbage must be noticed, not EOF.
                    client.getInputStream().transferTo(OutputStream.nullOutputStream());
                  } catch (IOException e) {
                    // closed: the loop ends with the server socket
                  }
                }
              },
              "not-redis");
      answering.setDaemon(true);
      answering.start();
      String uri = "redis://127.0.0.1:" + server.getLocalPort();
      try (RespNodeDriver driver = driver(List.of(uri), PATIENT)) {
        for (CompletableFuture<?> request :
            List.of(driver.lock(0, plain("g:a", "a")), driver.readMarks(0), driver.hasMarker(0))) {
          assertThat(NodeFailures.describe(failure(request)))
              .contains(driver.label(0))
              .contains("garbled");
        }
        assertThat(get(driver.settingsWarnings())).isNotNull();
      }
      server.close();
      answering.join(Timing.AWAIT.toMillis());
      assertThat(answering.isAlive()).isFalse();
    }
  }

  // --- login ---------------------------------------------------------------------------------

  @Test
  void passwordProtectedNode_rightPasswordWorks_wrongOrMissingPasswordFailsWithTheRefusal() {
    try (RedisNodes nodes = RedisNodes.start(1)) {
      RedisNode node = nodes.node(0);
      node.command("CONFIG", "SET", "requirepass", "s3cret");
      String at = "127.0.0.1:" + node.port();

      try (RespNodeDriver driver = driver(List.of("redis://:s3cret@" + at), PATIENT)) {
        assertThat(get(driver.lock(0, plain("auth:a", "alice"))))
            .isEqualTo(new LockReply.Granted(0, false));
        assertThat(driver.label(0)).doesNotContain("s3cret");
      }
      try (RespNodeDriver driver = driver(List.of("redis://default:s3cret@" + at), PATIENT)) {
        assertThat(get(driver.lock(0, plain("auth:b", "bob"))))
            .isEqualTo(new LockReply.Granted(0, false));
      }
      try (RespNodeDriver driver = driver(List.of("redis://:wrong@" + at), PATIENT)) {
        for (CompletableFuture<?> request :
            List.of(driver.lock(0, plain("auth:c", "carol")), driver.readMarks(0))) {
          assertThat(NodeFailures.describe(failure(request)))
              .contains(driver.label(0))
              .containsAnyOf("WRONGPASS", "invalid password")
              .doesNotContain("wrong@");
        }
      }
      try (RespNodeDriver driver = driver(List.of("redis://" + at), PATIENT)) {
        for (CompletableFuture<?> request :
            List.of(
                driver.lock(0, plain("auth:d", "dave")),
                driver.lock(0, new LockRequest("auth:e", "auth:f", "erin", TTL, 0, null)),
                driver.readMarks(0))) {
          assertThat(NodeFailures.describe(failure(request))).contains("NOAUTH");
        }
      }
      List<Object> replies =
          direct(
              node.port(),
              List.of(
                  new String[] {"AUTH", "s3cret"},
                  new String[] {"MGET", "auth:a", "auth:b", "auth:c"}));
      assertThat(replies.get(1)).isEqualTo(Arrays.asList("alice", "bob", null));
    }
  }

  @Test
  void databaseInTheUri_isSelected() {
    try (RedisNodes nodes = RedisNodes.start(1);
        RespNodeDriver driver =
            driver(List.of("redis://127.0.0.1:" + nodes.node(0).port() + "/3"), PATIENT)) {
      int port = nodes.node(0).port();
      assertThat(get(driver.lock(0, plain("db:key", "alice"))))
          .isEqualTo(new LockReply.Granted(0, false));
      assertThat(get(driver.initialize(0, 4, null)).outcome()).isEqualTo(InitReply.Outcome.SET);

      List<Object> replies =
          direct(
              port,
              List.of(
                  new String[] {"GET", "db:key"},
                  new String[] {"SELECT", "3"},
                  new String[] {"GET", "db:key"},
                  new String[] {"DBSIZE"}));
      assertThat(replies.get(0)).as("db 0").isNull();
      assertThat(replies.get(2)).as("db 3").isEqualTo("alice");
      assertThat((Long) replies.get(3)).isGreaterThanOrEqualTo(2L); // the lock and the marker
    }
  }

  // --- close ---------------------------------------------------------------------------------

  @Test
  void close_failsPendingRequestsAtOnce_laterCallsFail_noThreadSurvives_idempotent() {
    Set<Thread> before = driverThreads();
    try (RedisNodes nodes = RedisNodes.start(1)) {
      RedisNode node = nodes.node(0);
      RespNodeDriver driver = driver(nodes.uris(), PATIENT);
      get(driver.releases().subscribe("close:channel"));
      assertThat(driverThreads()).as("the driver's own threads").isNotEmpty();

      node.pause();
      List<CompletableFuture<?>> pending = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        pending.add(driver.lock(0, plain("close:" + i, "a")));
        pending.add(driver.serverId(0)); // admin timeout, not the request timer
      }
      driver.close();

      // "At once": done when close returns, not by a timeout later.
      assertThat(pending).allSatisfy(f -> assertThat(f).isCompletedExceptionally());
      assertThat(failure(driver.lock(0, plain("close:after", "a"))))
          .isNotInstanceOf(TimeoutException.class);
      assertThat(failure(driver.readMarks(0))).isNotInstanceOf(TimeoutException.class);
      assertThatCode(driver::close).doesNotThrowAnyException();
      awaitDriverThreadsGone(before);
      node.resume();
    }
  }

  @Test
  void closeOnTheDriversOwnThread_stillStopsEveryThread() {
    Set<Thread> before = driverThreads();
    try (RedisNodes nodes = RedisNodes.start(1)) {
      RespNodeDriver driver = driver(nodes.uris(), PATIENT);
      CompletableFuture<Boolean> onDriverThread = new CompletableFuture<>();
      // A dependent of a reply runs on the I/O thread; closing there must not deadlock or leak.
      // The node is paused until the dependent is in place, so the reply completes it there.
      nodes.node(0).pause();
      CompletableFuture<LockReply> pending = driver.lock(0, plain("self:key", "a"));
      pending.whenComplete(
          (reply, failure) -> {
            onDriverThread.complete(driver.isDriverThread());
            driver.close();
          });
      nodes.node(0).resume();
      assertThat(get(onDriverThread)).isTrue();
      awaitDriverThreadsGone(before);
      assertThat(failure(driver.readMarks(0))).isNotInstanceOf(TimeoutException.class);
    }
  }

  @Test
  void subscribeWhileTheNodeIsDown_announcementsArriveOnceItIsBack() {
    try (RedisNodes nodes = RedisNodes.start(1);
        RespNodeDriver driver = driver(nodes.uris(), PATIENT)) {
      RedisNode node = nodes.node(0);
      ConcurrentLinkedQueue<String> heard = new ConcurrentLinkedQueue<>();
      driver.releases().listen((channel, owner) -> heard.add(channel + "=" + owner));
      node.kill();
      // Its only node is down: the subscribe fails, but the channel stays subscribed.
      assertThat(failure(driver.releases().subscribe("down:channel")))
          .isNotInstanceOf(TimeoutException.class);
      node.restart();
      announceUntilHeard(driver, "down:channel", "owner", heard);
    }
  }

  @Test
  void unsubscribedChannel_isNotHeardAnyMore() {
    try (RedisNodes nodes = RedisNodes.start(1);
        RespNodeDriver driver = driver(nodes.uris(), PATIENT)) {
      ConcurrentLinkedQueue<String> heard = new ConcurrentLinkedQueue<>();
      driver.releases().listen((channel, owner) -> heard.add(channel + "=" + owner));
      get(driver.releases().subscribe("un:gone"));
      get(driver.releases().subscribe("un:kept"));
      driver.releases().unsubscribe("un:gone");
      // The node delivers a subscriber's messages in order: once the later announcement on the
      // kept channel is heard, one on the dropped channel would have been heard before it.
      get(driver.lock(0, plain("un:key", "first")));
      get(driver.release(0, "un:key", "first", "un:gone"));
      get(driver.lock(0, plain("un:key", "second")));
      get(driver.release(0, "un:key", "second", "un:kept"));
      await()
          .atMost(Timing.AWAIT)
          .pollInterval(Timing.POLL)
          .until(() -> heard.contains("un:kept=second"));
      assertThat(heard).containsExactly("un:kept=second");
    }
  }

  /**
   * An unsubscribe while the subscriber connection is being opened, or after it broke and before it
   * is back, leaves nothing subscribed once it is (the Lettuce driver's test has the same shape).
   */
  @Test
  void unsubscribe_whileConnectingOrReconnecting_leavesNothingSubscribed() throws Exception {
    try (RedisNodes nodes = RedisNodes.start(1);
        RespNodeDriver driver = driver(nodes.uris(), PATIENT)) {
      RedisNode node = nodes.node(0);
      CompletableFuture<Void> first = driver.releases().subscribe("stray:connecting");
      driver.releases().unsubscribe("stray:connecting");
      get(first);
      get(driver.releases().subscribe("stray:kept"));
      await().atMost(Timing.AWAIT).until(() -> subscribers(node, "stray:connecting") == 0);

      get(driver.releases().subscribe("stray:reconnecting"));
      node.command("CLIENT", "KILL", "TYPE", "pubsub");
      driver.releases().unsubscribe("stray:reconnecting");
      await().atMost(Timing.AWAIT).until(() -> subscribers(node, "stray:kept") == 1);
      await().atMost(Timing.AWAIT).until(() -> subscribers(node, "stray:reconnecting") == 0);
    }
  }

  private static long subscribers(RedisNode node, String channel) {
    return (Long) ((List<?>) node.command("PUBSUB", "NUMSUB", channel)).get(1);
  }

  /** Locks and releases with announcement, a new owner each try, until the listener hears one. */
  private static void announceUntilHeard(
      RespNodeDriver driver,
      String channel,
      String ownerPrefix,
      ConcurrentLinkedQueue<String> heard) {
    int[] tries = {0};
    await()
        .atMost(Timing.AWAIT)
        .pollInterval(Duration.ofMillis(100))
        .ignoreExceptions()
        .until(
            () -> {
              String owner = ownerPrefix + "-" + tries[0]++;
              driver.lock(0, plain(channel + ":key", owner)).get();
              driver.release(0, channel + ":key", owner, channel).get();
              return heard.stream().anyMatch(h -> h.startsWith(channel + "=" + ownerPrefix + "-"));
            });
  }

  private static Set<Thread> driverThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(
            t -> t.getName().startsWith("redlock-io") || t.getName().startsWith("redlock-timeouts"))
        .filter(Thread::isAlive)
        .collect(Collectors.toSet());
  }

  // --- release announcements -----------------------------------------------------------------

  @Test
  void releaseAnnouncements_reachTheListener_andAgainAfterTheNodeRestarts() {
    try (RedisNodes nodes = RedisNodes.start(1);
        RespNodeDriver driver = driver(nodes.uris(), PATIENT)) {
      RedisNode node = nodes.node(0);
      ConcurrentLinkedQueue<String> heard = new ConcurrentLinkedQueue<>();
      driver.releases().listen((channel, owner) -> heard.add(channel + "=" + owner));
      get(driver.releases().subscribe("ann:channel"));

      get(driver.lock(0, plain("ann:key", "alice")));
      assertThat(get(driver.release(0, "ann:key", "alice", "ann:channel"))).isTrue();
      await()
          .atMost(Timing.AWAIT)
          .pollInterval(Timing.POLL)
          .until(() -> heard.contains("ann:channel=alice"));

      node.restart();
      // Each try is a new owner, so only a release after the resubscribe can be heard.
      announceUntilHeard(driver, "ann:channel", "bob", heard);
      assertThat(heard).allSatisfy(h -> assertThat(h).startsWith("ann:channel="));
    }
  }
}
