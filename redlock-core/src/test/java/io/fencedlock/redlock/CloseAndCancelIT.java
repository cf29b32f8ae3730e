package io.fencedlock.redlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fencedlock.testkit.RedisNode;
import io.fencedlock.testkit.RedisNodes;
import io.fencedlock.testkit.support.Timing;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * Calls that are abandoned: a client closed while an acquire waits between attempts, a caller
 * interrupted or a stage cancelled while an attempt is on its way. Nothing may wait forever, and a
 * lease an abandoned attempt still gains is released, not leaked until its TTL.
 */
final class CloseAndCancelIT {
  /** Long enough that only a release, never expiry, can remove a key while a test runs. */
  private static final Duration LONG_TTL = Duration.ofSeconds(60);

  private static RedisNodes nodes;
  private String resource;

  @BeforeAll
  static void startNodes() {
    nodes = RedisNodes.start(5);
  }

  @AfterAll
  static void stopNodes() {
    nodes.close();
  }

  @BeforeEach
  void nameResource(TestInfo test) {
    resource = "cancel:" + test.getTestMethod().orElseThrow().getName();
  }

  @AfterEach
  void heal() {
    Cluster.heal(nodes);
  }

  @Test
  void close_whileAcquireAsyncWaitsBetweenAttempts_failsItPromptly() {
    try (Redlock holder = Redlock.create(Cluster.config(nodes).build());
        Lease held = holder.acquire(resource, LONG_TTL, LockTiming.RETRY_WAIT)) {
      Redlock waiter = Redlock.create(slowRetries());
      CompletableFuture<Lease> waiting =
          waitBetweenAttempts(
              waiter,
              r ->
                  r.acquireAsync(resource, LONG_TTL, Duration.ofMinutes(30)).toCompletableFuture());

      waiter.close();

      assertThat(waiting)
          .failsWithin(Timing.AWAIT)
          .withThrowableOfType(java.util.concurrent.ExecutionException.class)
          .withMessageContaining("closed");
      assertThat(held.isValid()).isTrue();
    }
  }

  @Test
  void close_whileSyncAcquireWaitsBetweenAttempts_throwsPromptly() {
    try (Redlock holder = Redlock.create(Cluster.config(nodes).build());
        Lease held = holder.acquire(resource, LONG_TTL, LockTiming.RETRY_WAIT)) {
      Redlock waiter = Redlock.create(slowRetries());
      CompletableFuture<Lease> waiting =
          waitBetweenAttempts(
              waiter,
              r ->
                  CompletableFuture.supplyAsync(
                      () -> r.acquire(resource, LONG_TTL, Duration.ofMinutes(30))));

      waiter.close();

      assertThat(waiting)
          .failsWithin(Timing.AWAIT)
          .withThrowableOfType(java.util.concurrent.ExecutionException.class)
          .withMessageContaining("closed");
    }
  }

  @Test
  void tryAcquire_interruptedWhileNodesHoldTheRequest_releasesTheLeaseItThenGains()
      throws Exception {
    try (Redlock redlock = Redlock.create(patientNodes())) {
      long before = Cluster.evalshaCalls(nodes);
      pauseAll();
      AtomicReference<Throwable> thrown = new AtomicReference<>();
      Thread caller =
          new Thread(
              () -> {
                try {
                  redlock.tryAcquire(resource, LONG_TTL);
                } catch (RuntimeException e) {
                  thrown.set(e);
                }
              });
      caller.start();
      await()
          .atMost(Timing.AWAIT)
          .until(
              () ->
                  caller.getState() == Thread.State.TIMED_WAITING
                      || caller.getState() == Thread.State.WAITING);

      caller.interrupt();
      caller.join(Timing.AWAIT.toMillis());
      assertThat(thrown.get())
          .isInstanceOf(RedlockException.class)
          .hasMessageContaining("interrupted");
      resumeAll();

      // The attempt runs on once the nodes answer and gains the lock; nobody will use it.
      await()
          .atMost(Timing.AWAIT)
          .until(() -> Cluster.evalshaCalls(nodes) >= before + nodes.size());
      await().atMost(Timing.AWAIT).until(() -> Cluster.holding(nodes, resource) == 0);
      try (Lease next = redlock.acquire(resource, LONG_TTL, LockTiming.RETRY_WAIT)) {
        assertThat(next.isValid()).isTrue();
      }
    }
  }

  @Test
  void close_whileTryAcquireAsyncIsInFlight_failsItAndReleasesTheLeaseItGains() throws Exception {
    Redlock redlock = Redlock.create(patientNodes());
    long before = Cluster.evalshaCalls(nodes);
    pauseAll();
    CompletableFuture<Optional<Lease>> attempt =
        redlock.tryAcquireAsync(resource, LONG_TTL).toCompletableFuture();
    Thread closer = new Thread(redlock::close);
    closer.start();

    assertThat(attempt)
        .failsWithin(Timing.AWAIT)
        .withThrowableOfType(java.util.concurrent.ExecutionException.class)
        .withMessageContaining("closed");
    resumeAll(); // close() waits for the attempt in flight, and releases what it gains
    closer.join(Timing.AWAIT.toMillis());

    assertThat(closer.isAlive()).isFalse();
    assertThat(Cluster.evalshaCalls(nodes))
        .as("the attempt reached the nodes")
        .isGreaterThanOrEqualTo(before + nodes.size());
    assertThat(Cluster.holding(nodes, resource)).isZero();
  }

  @Test
  void close_fromACallbackOnAnIoThread_returnsWithoutWaitingForItself() {
    Redlock redlock = Redlock.create(patientNodes());
    pauseAll();
    CompletableFuture<Void> closedInCallback = new CompletableFuture<>();
    redlock
        .tryAcquireAsync(resource, LONG_TTL)
        .whenComplete(
            (lease, e) -> {
              lease.ifPresent(Lease::releaseAsync);
              redlock.close(); // on the I/O thread that delivered the last reply
              closedInCallback.complete(null);
            });

    resumeAll();

    assertThat(closedInCallback).succeedsWithin(Timing.AWAIT);
    await().atMost(Timing.AWAIT).until(() -> Cluster.holding(nodes, resource) == 0);
  }

  @Test
  void close_fromACallbackOnTheTimerThread_returnsWithoutWaitingForItself() {
    Redlock redlock =
        Redlock.create(
            RedlockConfig.builder()
                .nodes(nodes.uris())
                .nodeTimeout(LockTiming.NODE_TIMEOUT)
                .connectTimeout(
                    Duration.ofMinutes(
                        1)) // makes close()'s own bound far longer than this test waits
                .build());
    pauseAll();
    CompletableFuture<Void> closedInCallback = new CompletableFuture<>();
    redlock
        .tryAcquireAsync(resource, LONG_TTL)
        .whenComplete(
            (lease, e) -> {
              redlock.close(); // on the timer thread: every node timed out
              closedInCallback.complete(null);
            });

    assertThat(closedInCallback).succeedsWithin(Timing.AWAIT);
  }

  @Test
  void close_calledAgainByALossCallbackThatClosingRuns_returnsWithoutWaitingForItself() {
    // close()'s own bound (two connect timeouts, each the test's await bound, and more) is far
    // longer than this test waits.
    Redlock redlock = Redlock.create(Cluster.config(nodes).build());
    Lease lease =
        redlock
            .acquire(resource, Timing.scaled(Duration.ofSeconds(10)), LockTiming.RETRY_WAIT)
            .keepAlive(Renewal.defaults());
    // As a service might: stop everything once the lock is lost. Closing loses the lease and runs
    // this on the closing thread.
    lease.lost().thenAccept(loss -> redlock.close());

    CompletableFuture<Void> closing = CompletableFuture.runAsync(redlock::close);

    assertThat(closing).succeedsWithin(Timing.AWAIT);
    assertThat(lease.lost().toCompletableFuture()).isCompleted();
  }

  @Test
  void lease_afterItsClientClosed_extendThrowsAndReleaseSendsNothing() {
    Redlock redlock = Redlock.create(Cluster.config(nodes).build());
    Lease lease = redlock.acquire(resource, LONG_TTL, LockTiming.RETRY_WAIT);
    redlock.close();

    assertThatThrownBy(() -> lease.extend(LONG_TTL))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("closed");
    assertThat(lease.release()).isFalse();
  }

  @Test
  void tryAcquireAsync_cancelledWhileNodesHoldTheRequest_releasesTheLeaseItThenGains() {
    assertCancelledAttemptLeavesNoLock(r -> r.tryAcquireAsync(resource, LONG_TTL));
  }

  @Test
  void acquireAsync_cancelledWhileNodesHoldTheRequest_releasesTheLeaseItThenGains() {
    assertCancelledAttemptLeavesNoLock(
        r -> r.acquireAsync(resource, LONG_TTL, LockTiming.RETRY_WAIT));
  }

  @Test
  void withLockAsync_cancelledWhileNodesHoldTheRequest_releasesTheLeaseItThenGains() {
    // A node timeout with room to renew a 60 s lease, far longer than the pause.
    RedlockConfig config =
        RedlockConfig.builder()
            .nodes(nodes.uris())
            .nodeTimeout(Timing.scaled(Duration.ofSeconds(5)))
            .connectTimeout(Timing.AWAIT)
            .build();
    assertCancelledAttemptLeavesNoLock(
        config,
        r ->
            r.withLockAsync(
                resource,
                LockOptions.defaults().withTtl(LONG_TTL).withMaxWait(LockTiming.RETRY_WAIT),
                lease -> CompletableFuture.completedFuture("never runs")));
  }

  private void assertCancelledAttemptLeavesNoLock(Function<Redlock, CompletionStage<?>> start) {
    assertCancelledAttemptLeavesNoLock(patientNodes(), start);
  }

  private void assertCancelledAttemptLeavesNoLock(
      RedlockConfig config, Function<Redlock, CompletionStage<?>> start) {
    try (Redlock redlock = Redlock.create(config)) {
      pauseAll();
      CompletableFuture<?> stage = start.apply(redlock).toCompletableFuture();

      assertThat(stage.cancel(true)).isTrue();
      resumeAll();

      await().atMost(Timing.AWAIT).until(() -> Cluster.holding(nodes, resource) == 0);
      // Once gained and released, the lock is free for anybody.
      try (Lease next = redlock.acquire(resource, LONG_TTL, LockTiming.RETRY_WAIT)) {
        assertThat(next.isValid()).isTrue();
      }
    }
  }

  /**
   * Starts an acquire of a held lock and returns once it waits between attempts: it has made its
   * first attempt and the one that follows its subscription, and now sleeps for the long retry
   * delay. The first is refused on all five nodes; the second, contended, asks the lead node alone,
   * which refuses too. Neither sends anything more.
   */
  private <T> CompletableFuture<T> waitBetweenAttempts(
      Redlock waiter, Function<Redlock, CompletableFuture<T>> start) {
    long before = Cluster.evalshaCalls(nodes);
    CompletableFuture<T> waiting = start.apply(waiter);
    await()
        .atMost(Timing.AWAIT)
        .until(() -> Cluster.evalshaCalls(nodes) >= before + nodes.size() + 1);
    assertThat(waiting).isNotDone();
    return waiting;
  }

  /** A retry delay far longer than any test: an acquire that waits, waits for good. */
  private static RedlockConfig slowRetries() {
    return RedlockConfig.builder()
        .nodes(nodes.uris())
        .nodeTimeout(LockTiming.NODE_TIMEOUT)
        .connectTimeout(Timing.AWAIT)
        .retryDelay(Duration.ofMinutes(10))
        .retryJitter(Duration.ZERO)
        .build();
  }

  /** A node timeout longer than any test, so requests to paused nodes wait for their resumption. */
  private static RedlockConfig patientNodes() {
    return RedlockConfig.builder()
        .nodes(nodes.uris())
        .nodeTimeout(Duration.ofMinutes(1))
        .connectTimeout(Timing.AWAIT)
        .build();
  }

  private static void pauseAll() {
    for (RedisNode node : nodes) {
      node.pause();
    }
  }

  private static void resumeAll() {
    for (RedisNode node : nodes) {
      node.resume();
    }
  }
}
