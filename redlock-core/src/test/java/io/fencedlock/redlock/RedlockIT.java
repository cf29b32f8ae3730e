package io.fencedlock.redlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fencedlock.testkit.RedisNodes;
import io.fencedlock.testkit.support.Timing;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/** The lock's contract on five healthy nodes. */
final class RedlockIT {
  private static final Duration TTL = Duration.ofSeconds(10);
  private static RedisNodes nodes;
  private static Redlock redlock;
  private String resource;

  @BeforeAll
  static void startNodes() {
    nodes = RedisNodes.start(5);
    redlock = Redlock.create(Cluster.config(nodes).build());
  }

  @AfterAll
  static void stopNodes() {
    redlock.close();
    nodes.close();
  }

  @org.junit.jupiter.api.BeforeEach
  void nameResource(TestInfo test) {
    resource = "it:" + test.getTestMethod().orElseThrow().getName();
  }

  @AfterEach
  void heal() {
    Cluster.heal(nodes);
  }

  @Test
  void acquire_freeResource_locksEveryNodeAndWritesTokenOnAQuorum() {
    Lease lease = redlock.acquire(resource, TTL, LockTiming.RETRY_WAIT);

    assertThat(lease.isFenced()).isTrue();
    assertThat(lease.fencingToken()).isPositive();
    assertThat(lease.remainingValidity()).isPositive().isLessThanOrEqualTo(TTL.minusMillis(102));
    // The key on the wire is exactly the resource name, holding the owner id (interoperable).
    await()
        .atMost(Timing.AWAIT)
        .until(() -> Cluster.holdingValue(nodes, resource, lease.ownerId()) == 5);
    assertThat(
            Cluster.holdingValue(
                nodes, "{" + resource + "}:fence", Long.toString(lease.fencingToken())))
        .isGreaterThanOrEqualTo(3);

    assertThat(lease.release()).isTrue();
    assertThat(Cluster.holding(nodes, resource))
        .as("release returns once a quorum deleted")
        .isLessThanOrEqualTo(2);
    Cluster.awaitNoKey(nodes, resource);
    assertThat(Cluster.holding(nodes, "{" + resource + "}:fence"))
        .as("fence keys survive")
        .isGreaterThanOrEqualTo(3);
  }

  @Test
  void tryAcquire_heldByAnother_isEmptyUntilReleased() {
    Lease first = redlock.acquire(resource, TTL, LockTiming.RETRY_WAIT);

    assertThat(redlock.tryAcquire(resource, TTL)).isEmpty();
    first.release();
    Optional<Lease> second = redlock.tryAcquire(resource, TTL);

    assertThat(second).isPresent();
    assertThat(second.get().fencingToken()).isGreaterThan(first.fencingToken());
    second.get().close();
  }

  @Test
  void tryAcquire_refusedByEveryNode_sendsNoCleanupThere() {
    try (Lease held = redlock.acquire(resource, TTL, LockTiming.RETRY_WAIT)) {
      assertThat(scriptCallsOfRefusedTryAcquire(redlock, held))
          .as("one acquire script per node, no release where nothing was locked")
          .isEqualTo(5);
    }
  }

  @Test
  void unfenced_tryAcquireRefused_stillCleansUpEveryNode() {
    // A plain SET NX refusal cannot tell "another owner" from "this request, delivered twice".
    try (Redlock plain = Redlock.create(Cluster.config(nodes).fencing(false).build());
        Lease held = plain.acquire(resource, TTL, LockTiming.RETRY_WAIT)) {
      assertThat(scriptCallsOfRefusedTryAcquire(plain, held))
          .as("a compare-and-delete on every node, the SET NX is no script")
          .isEqualTo(5);
      assertThat(Cluster.holdingValue(nodes, resource, held.ownerId())).isEqualTo(5);
    }
  }

  /**
   * Once {@code held} is on every node, how many scripts the nodes run for a {@code tryAcquire} of
   * the same resource through {@code client}, which must be refused.
   */
  private long scriptCallsOfRefusedTryAcquire(Redlock client, Lease held) {
    await()
        .atMost(Timing.AWAIT)
        .until(() -> Cluster.holdingValue(nodes, resource, held.ownerId()) == 5);
    long before = Cluster.evalshaCalls(nodes);
    assertThat(client.tryAcquire(resource, TTL)).isEmpty();
    return Cluster.evalshaCalls(nodes) - before;
  }

  @Test
  void acquire_failed_exceptionCarriesTheCallersStack() {
    try (Lease held = redlock.acquire(resource, TTL, LockTiming.RETRY_WAIT)) {
      assertThatThrownBy(() -> redlock.acquire(resource, TTL, Duration.ofMillis(100)))
          .isInstanceOfSatisfying(
              LockAcquisitionException.class,
              e ->
                  assertThat(framesOf(e))
                      .as("the failure was decided on an I/O thread; the caller is still shown")
                      .anyMatch(
                          f ->
                              f.getMethodName()
                                  .equals("acquire_failed_exceptionCarriesTheCallersStack")));
    }
  }

  private static List<StackTraceElement> framesOf(Throwable e) {
    List<StackTraceElement> frames = new ArrayList<>(List.of(e.getStackTrace()));
    for (Throwable related : e.getSuppressed()) {
      frames.addAll(framesOf(related));
    }
    if (e.getCause() != null) {
      frames.addAll(framesOf(e.getCause()));
    }
    return frames;
  }

  @Test
  void acquire_heldForLongerThanMaxWait_throwsWithRefusals() {
    try (Lease held = redlock.acquire(resource, TTL, LockTiming.RETRY_WAIT)) {
      assertThatThrownBy(() -> redlock.acquire(resource, TTL, Duration.ofMillis(300)))
          .isInstanceOfSatisfying(
              LockAcquisitionException.class,
              e -> {
                assertThat(e.attempts()).isGreaterThan(1);
                assertThat(e.outcomes()).hasSize(5);
                assertThat(e.outcomes())
                    .filteredOn(o -> o.status() == NodeStatus.REFUSED)
                    .hasSizeGreaterThanOrEqualTo(3);
                assertThat(e.getMessage()).contains(resource).contains("REFUSED");
              });
      assertThat(Cluster.holdingValue(nodes, resource, held.ownerId())).isEqualTo(5);
    }
  }

  @Test
  void acquireAsync_heldThenReleased_completesWithNewLease() throws Exception {
    Lease first = redlock.acquire(resource, TTL, LockTiming.RETRY_WAIT);
    CompletableFuture<Lease> waiting =
        redlock.acquireAsync(resource, TTL, Duration.ofSeconds(5)).toCompletableFuture();

    first.release();
    Lease second = waiting.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS);

    assertThat(second.fencingToken()).isGreaterThan(first.fencingToken());
    second.release();
  }

  @Test
  void extend_whileValid_resetsExpiryAndKeepsToken() {
    Lease lease = redlock.acquire(resource, Duration.ofSeconds(2), LockTiming.RETRY_WAIT);
    long token = lease.fencingToken();

    assertThat(lease.extend(Duration.ofSeconds(30))).isTrue();

    assertThat(lease.fencingToken()).isEqualTo(token);
    assertThat(lease.remainingValidity()).isGreaterThan(Duration.ofSeconds(20));
    // extend returns at the third confirmation; the other two land just after
    await()
        .atMost(Timing.AWAIT)
        .until(
            () ->
                nodes.nodes().stream()
                    .allMatch(node -> (Long) node.command("PTTL", resource) > 20_000L));
    lease.release();
  }

  @Test
  void extend_afterExpiry_throwsAndRecreatesNothing() {
    Lease lease = redlock.acquire(resource, Duration.ofMillis(150), LockTiming.RETRY_WAIT);
    await()
        .atMost(Timing.AWAIT)
        .until(() -> !lease.isValid() && Cluster.holding(nodes, resource) == 0);

    assertThatThrownBy(() -> lease.extend(Duration.ofSeconds(10)))
        .isInstanceOf(LockExpiredException.class);

    assertThat(Cluster.holding(nodes, resource)).isZero();
  }

  @Test
  void extend_keyDeletedOnAMajority_returnsFalseAndRecreatesNothing() {
    Lease lease = redlock.acquire(resource, TTL, LockTiming.RETRY_WAIT);
    // acquire returns at the third grant; a later SET must not land after the DELs below.
    await()
        .atMost(Timing.AWAIT)
        .until(() -> Cluster.holdingValue(nodes, resource, lease.ownerId()) == 5);
    for (int i = 0; i < 3; i++) {
      nodes.node(i).command("DEL", resource);
    }

    assertThat(lease.extend(Duration.ofSeconds(20))).isFalse();

    for (int i = 0; i < 3; i++) {
      assertThat(nodes.node(i).command("EXISTS", resource)).isEqualTo(0L);
    }
    lease.release();
  }

  @Test
  void release_afterExpiryAndReacquire_keepsTheNewOwnersKey() {
    Lease stale = redlock.acquire(resource, Duration.ofMillis(150), LockTiming.RETRY_WAIT);
    await().atMost(Timing.AWAIT).until(() -> Cluster.holding(nodes, resource) == 0);
    Lease current = redlock.acquire(resource, TTL, LockTiming.RETRY_WAIT);

    assertThat(stale.release()).isFalse();

    // acquire returns at the third grant; the other two SETs land just after
    await()
        .atMost(Timing.AWAIT)
        .until(() -> Cluster.holdingValue(nodes, resource, current.ownerId()) == 5);
    assertThat(current.fencingToken()).isGreaterThan(stale.fencingToken());
    current.release();
  }

  @Test
  void release_twice_isIdempotent() {
    Lease lease = redlock.acquire(resource, TTL, LockTiming.RETRY_WAIT);

    assertThat(lease.release()).isTrue();
    assertThat(lease.release()).isFalse();
    lease.close();

    assertThat(lease.isValid()).isFalse();
    assertThat(lease.remainingValidity()).isZero();
  }

  @Test
  void acquire_afterScriptFlush_succeedsOnceTheScriptsAreLoadedAgain() {
    // The first attempt's lock steps fail with NOSCRIPT (never sent twice) and load the scripts;
    // the retry is granted.
    nodes.forEach(n -> n.command("SCRIPT", "FLUSH"));

    try (Lease lease = redlock.acquire(resource, TTL, LockTiming.RETRY_WAIT)) {
      assertThat(lease.extend(TTL)).isTrue();
    }
    Cluster.awaitNoKey(nodes, resource);
  }

  @Test
  void acquire_foreignClientHoldsKeyOnMajority_isRefused() {
    // Another Redlock client (node-redlock, redsync, ...) sets the same key with its own value.
    for (int i = 0; i < 3; i++) {
      assertThat(nodes.node(i).command("SET", resource, "foreign-owner", "NX", "PX", "10000"))
          .isEqualTo("OK");
    }

    assertThat(redlock.tryAcquire(resource, TTL)).isEmpty();

    for (int i = 0; i < 3; i++) {
      assertThat(nodes.node(i).command("GET", resource)).isEqualTo("foreign-owner");
      nodes.node(i).command("DEL", resource);
    }
  }

  @Test
  void unfenced_acquire_isPlainSetNxAndExcludesForeignSetNx() {
    try (Redlock plain = Redlock.create(Cluster.config(nodes).fencing(false).build());
        Lease lease = plain.acquire(resource, TTL, LockTiming.RETRY_WAIT)) {
      assertThat(lease.isFenced()).isFalse();
      assertThatThrownBy(lease::fencingToken).isInstanceOf(IllegalStateException.class);
      // acquire returns at the third grant; the other two SETs land just after
      await()
          .atMost(Timing.AWAIT)
          .until(() -> Cluster.holdingValue(nodes, resource, lease.ownerId()) == 5);
      assertThat(Cluster.holding(nodes, "{" + resource + "}:fence")).isZero();
      // A foreign client's SET NX fails while we hold it, and our fenced client is refused too.
      assertThat(nodes.node(0).command("SET", resource, "foreign", "NX", "PX", "10000")).isNull();
      assertThat(redlock.tryAcquire(resource, TTL)).isEmpty();
    }
    assertThat(Cluster.holding(nodes, resource)).isZero();
  }

  @Test
  void arguments_invalid_throwIllegalArgumentNamingTheParameter() {
    assertThatThrownBy(() -> redlock.tryAcquire(" ", TTL))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("resource");
    assertThatThrownBy(() -> redlock.tryAcquire(null, TTL))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("resource");
    assertThatThrownBy(() -> redlock.tryAcquire(resource, Duration.ofMillis(2)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("ttl");
    assertThatThrownBy(() -> redlock.tryAcquire(resource, Duration.ofHours(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxLeaseTtl");
    assertThatThrownBy(() -> redlock.acquire(resource, TTL, Duration.ofMillis(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxWait");
    assertThatThrownBy(() -> redlock.acquire(resource, TTL, Duration.ofDays(365L * 300)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxWait");
    try (Lease lease = redlock.acquire(resource, TTL, LockTiming.RETRY_WAIT)) {
      assertThatThrownBy(() -> lease.extend(Duration.ZERO))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("ttl");
      assertThatThrownBy(() -> lease.extend(Duration.ofMillis(-5)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("ttl");
    }
  }

  @Test
  void acquire_reservedResourceNames_throwIllegalArgumentAndTouchNothing() {
    // "{a}" would share its fence key with "a"; the others are "a"'s fence key and a node key.
    for (String reserved :
        List.of("{a}", "{a}:fence", "redlock:node-init", "redlock:node-max-token")) {
      assertThatThrownBy(() -> redlock.tryAcquire(reserved, TTL))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("resource '" + reserved + "' is reserved");
      assertThatThrownBy(() -> redlock.acquireAsync(reserved, TTL, Duration.ZERO))
          .isInstanceOf(IllegalArgumentException.class);
    }
    try (Lease lease = redlock.acquire("a", TTL, LockTiming.RETRY_WAIT)) {
      assertThat(lease.fencingToken()).isPositive();
      assertThat(Cluster.holding(nodes, "{a}:fence"))
          .as("its fence key, on a quorum")
          .isGreaterThanOrEqualTo(3);
    }
  }

  @Test
  void create_oneServerReachedThroughTwoPorts_throwsAndLeavesNoThreads() {
    long before = redlockThreads();
    try (PortForward forward = new PortForward(nodes.node(0).port())) {
      List<String> uris = new java.util.ArrayList<>(nodes.uris().subList(0, 2));
      uris.add("redis://127.0.0.1:" + forward.port()); // node 0 again, under another port
      RedlockConfig config = Cluster.configFor(uris).build();

      assertThatThrownBy(() -> Redlock.create(config))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("nodes[2]")
          .hasMessageContaining("nodes[0]")
          .hasMessageContaining("one Redis server");
    }
    await().atMost(Timing.AWAIT).until(() -> redlockThreads() <= before);
  }

  @Test
  void create_callerInterrupted_throwsAndLeavesNoThreadsOrConnections() {
    long before = redlockThreads();
    Thread.currentThread().interrupt();
    try {
      assertThatThrownBy(() -> Redlock.create(Cluster.config(nodes).build()))
          .isInstanceOf(RedlockException.class)
          .hasMessageContaining("interrupted");
      assertThat(Thread.currentThread().isInterrupted()).as("the interrupt is kept").isTrue();
    } finally {
      Thread.interrupted();
    }
    await().atMost(Timing.AWAIT).until(() -> redlockThreads() <= before);
  }

  @Test
  void extend_beyondMaxExtensions_throwsIllegalState() {
    try (Redlock capped = Redlock.create(Cluster.config(nodes).maxExtensions(1).build());
        Lease lease = capped.acquire(resource, TTL, LockTiming.RETRY_WAIT)) {
      assertThat(lease.extend(TTL)).isTrue();
      assertThatThrownBy(() -> lease.extend(TTL))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("RedlockConfig.Builder.maxExtensions")
          .hasMessageContaining("keepAlive");
    }
  }

  @Test
  void extendAsync_invalidTtl_failsItsStageInsteadOfThrowing() {
    try (Lease lease = redlock.acquire(resource, TTL, LockTiming.RETRY_WAIT)) {
      CompletableFuture<Boolean> extended = lease.extendAsync(Duration.ZERO).toCompletableFuture();

      assertThat(extended)
          .failsWithin(Timing.AWAIT)
          .withThrowableThat()
          .withCauseInstanceOf(IllegalArgumentException.class)
          .withMessageContaining("ttl");
    }
  }

  @Test
  void close_ownedClient_stopsItsThreads() {
    long before = redlockThreads();
    Redlock extra = Redlock.create(Cluster.config(nodes).build());
    extra.acquire(resource, TTL, LockTiming.RETRY_WAIT).release();

    extra.close();

    await().atMost(Timing.AWAIT).until(() -> redlockThreads() <= before);
    assertThatThrownBy(() -> extra.tryAcquire(resource, TTL))
        .isInstanceOf(IllegalStateException.class);
  }

  private static long redlockThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(
            t ->
                t.isAlive()
                    && (t.getName().startsWith("lettuce") || t.getName().startsWith("redlock")))
        .count();
  }
}
