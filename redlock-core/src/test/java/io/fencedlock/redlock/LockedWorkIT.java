package io.fencedlock.redlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fencedlock.testkit.RedisNodes;
import io.fencedlock.testkit.support.Timing;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/** Work run under a lock: acquired, kept alive, always released, told when the lease is lost. */
final class LockedWorkIT {
  /**
   * Renewal needs room: a renewal window closes two node timeouts and 5 % before the validity does.
   */
  private static final Duration TTL = Timing.scaled(Duration.ofSeconds(1));

  private static RedisNodes nodes;
  private Redlock redlock;
  private String resource;
  private LockOptions options;

  @BeforeAll
  static void startNodes() {
    nodes = RedisNodes.start(5);
  }

  @AfterAll
  static void stopNodes() {
    nodes.close();
  }

  @BeforeEach
  void setUp(TestInfo test) {
    resource = "work:" + test.getTestMethod().orElseThrow().getName();
    redlock = Redlock.create(renewing().build());
    options = LockOptions.defaults().withTtl(TTL).withMaxWait(LockTiming.RETRY_WAIT);
  }

  @AfterEach
  void tearDown() {
    Cluster.heal(nodes);
    redlock.close();
  }

  @Test
  void withLock_workReturns_passesTheLeaseAndReleases() {
    AtomicLong token = new AtomicLong();

    String result =
        redlock.withLock(
            resource,
            options,
            lease -> {
              token.set(lease.fencingToken());
              assertThat(Cluster.holdingValue(nodes, resource, lease.ownerId()))
                  .isGreaterThanOrEqualTo(3);
              return "done";
            });

    assertThat(result).isEqualTo("done");
    assertThat(token.get()).isPositive();
    Cluster.awaitNoKey(nodes, resource);
  }

  @Test
  void withLock_workThrowsCheckedException_passesItOnAndReleases() {
    assertThatThrownBy(
            () ->
                redlock.withLock(
                    resource,
                    options,
                    lease -> {
                      throw new IOException("the work failed");
                    }))
        .isInstanceOf(IOException.class)
        .hasMessage("the work failed");

    Cluster.awaitNoKey(nodes, resource);
  }

  @Test
  void withLock_leaseLostWhileWorking_interruptsTheWorkThenThrowsLockLost() {
    AtomicBoolean interrupted = new AtomicBoolean();

    assertThatThrownBy(
            () ->
                redlock.withLock(
                    resource,
                    options,
                    lease -> {
                      for (int i = 0; i < 3; i++) {
                        nodes.node(i).pause(); // renewal can no longer get a quorum
                      }
                      // Work that does not consume the interrupt: withLock must clear the one it
                      // caused.
                      long giveUp = System.nanoTime() + Timing.AWAIT.toNanos();
                      while (!Thread.currentThread().isInterrupted()
                          && System.nanoTime() < giveUp) {
                        Thread.onSpinWait();
                      }
                      interrupted.set(Thread.currentThread().isInterrupted());
                      return "unreachable";
                    }))
        .isInstanceOf(LockLostException.class)
        .hasMessageContaining("RENEWAL_FAILED");

    assertThat(interrupted).as("the work was interrupted").isTrue();
    assertThat(Thread.currentThread().isInterrupted())
        .as("no interrupt leaks to the caller")
        .isFalse();
  }

  @Test
  void withLock_workSleepingWhenTheLeaseIsLost_throwsLockLostCausedByTheInterrupt() {
    assertThatThrownBy(
            () ->
                redlock.withLock(
                    resource,
                    options,
                    lease -> {
                      for (int i = 0; i < 3; i++) {
                        nodes.node(i).pause(); // renewal can no longer get a quorum
                      }
                      // Work that blocks, as most does: the loss reaches it as an interrupt.
                      Thread.sleep(Timing.AWAIT.multipliedBy(2).toMillis());
                      return "unreachable";
                    }))
        .isInstanceOf(LockLostException.class) // what `catch (LockLostException e)` catches
        .hasMessageContaining("RENEWAL_FAILED")
        .hasCauseInstanceOf(InterruptedException.class);

    assertThat(Thread.currentThread().isInterrupted())
        .as("no interrupt leaks to the caller")
        .isFalse();
  }

  @Test
  void withLock_workFailsOfItsOwnAfterTheLeaseIsLost_throwsLockLostCausedByThatFailure() {
    assertThatThrownBy(
            () ->
                redlock.withLock(
                    resource,
                    options.withInterruptOnLoss(false),
                    lease -> {
                      for (int i = 0; i < 3; i++) {
                        nodes.node(i).pause();
                      }
                      assertThat(lease.lost().toCompletableFuture()).succeedsWithin(Timing.AWAIT);
                      throw new IOException("the work failed");
                    }))
        .isInstanceOf(LockLostException.class)
        .hasCauseInstanceOf(IOException.class);
  }

  @Test
  void withLock_callersOwnInterruptEndsTheWorkOfALostLease_throwsLockLostAndKeepsTheFlag() {
    try {
      assertThatThrownBy(
              () ->
                  redlock.withLock(
                      resource,
                      options.withInterruptOnLoss(false),
                      lease -> {
                        for (int i = 0; i < 3; i++) {
                          nodes.node(i).pause();
                        }
                        assertThat(lease.lost().toCompletableFuture()).succeedsWithin(Timing.AWAIT);
                        Thread.currentThread().interrupt(); // the caller's, not the loss's
                        Thread.sleep(Timing.AWAIT.toMillis());
                        return "unreachable";
                      }))
          .isInstanceOf(LockLostException.class)
          .hasCauseInstanceOf(InterruptedException.class);
    } finally {
      assertThat(Thread.interrupted()).as("the caller's interrupt is kept").isTrue();
    }
  }

  @Test
  void withLock_clientClosedWhileWorking_interruptsTheWorkThenThrowsLockLost() {
    CompletableFuture<Void> working = new CompletableFuture<>();
    AtomicBoolean interrupted = new AtomicBoolean();
    CompletableFuture<String> result =
        CompletableFuture.supplyAsync(
            () ->
                redlock.withLock(
                    resource,
                    options,
                    lease -> {
                      working.complete(null);
                      try {
                        // Work that runs on unless told: past the await bound of the test.
                        new CompletableFuture<Void>()
                            .get(Timing.AWAIT.multipliedBy(2).toMillis(), TimeUnit.MILLISECONDS);
                      } catch (InterruptedException e) {
                        interrupted.set(true);
                      } catch (ExecutionException | TimeoutException e) {
                        // not told: the test fails on the flag
                      }
                      return "done";
                    }));
    assertThat(working).succeedsWithin(Timing.AWAIT);

    redlock.close();

    assertThat(result)
        .failsWithin(Timing.AWAIT.multipliedBy(3))
        .withThrowableThat()
        .withCauseInstanceOf(LockLostException.class)
        .withMessageContaining("CLIENT_CLOSED");
    assertThat(interrupted).as("the work was interrupted").isTrue();
  }

  @Test
  void withLockAsync_clientClosedWhileWorking_cancelsTheWorkKeepsTheKeyAndFailsWithLockLost() {
    CompletableFuture<String> neverEnds = new CompletableFuture<>();
    CompletableFuture<Void> working = new CompletableFuture<>();

    CompletableFuture<String> result =
        redlock
            .withLockAsync(
                resource,
                // Long enough for the key to be there after close() unless closing deleted it.
                options.withTtl(Timing.scaled(Duration.ofSeconds(20))),
                lease -> {
                  working.complete(null);
                  return neverEnds;
                })
            .toCompletableFuture();
    assertThat(working).succeedsWithin(Timing.AWAIT);

    redlock.close();

    assertThat(neverEnds).as("the work's stage is cancelled").isCancelled();
    // Cancelling a stage does not stop what produces it: the work may still run, so closing
    // must not release its lock to another client.
    assertThat(Cluster.holding(nodes, resource)).isGreaterThanOrEqualTo(3);
    assertThat(result)
        .failsWithin(Timing.AWAIT)
        .withThrowableThat()
        .withCauseInstanceOf(LockLostException.class)
        .withMessageContaining("CLIENT_CLOSED");
  }

  @Test
  void withLock_validityRanOutWhileWorking_throwsLockLostEvenWithoutASignal() {
    FakeTicker ticker = new FakeTicker();
    try (Redlock client = Redlock.create(renewing().ticker(ticker).build())) {
      assertThatThrownBy(
              () ->
                  client.withLock(
                      resource,
                      options.withInterruptOnLoss(false),
                      lease -> {
                        ticker.advance(
                            TTL.multipliedBy(5)); // this process "paused" past the validity
                        return "done too late";
                      }))
          .isInstanceOf(LockLostException.class)
          .hasMessageContaining("EXPIRED");
    }
  }

  @Test
  void withLock_heldElsewhere_throwsAcquisitionFailureWithoutRunningTheWork() {
    AtomicBoolean ran = new AtomicBoolean();
    try (Lease held = redlock.acquire(resource, Duration.ofSeconds(30), LockTiming.RETRY_WAIT)) {
      assertThatThrownBy(
              () ->
                  redlock.withLock(
                      resource, options.withMaxWait(Duration.ZERO), lease -> ran.getAndSet(true)))
          .isInstanceOf(LockAcquisitionException.class);
    }
    assertThat(ran).isFalse();
  }

  @Test
  void withLockAsync_leaseLost_cancelsTheWorkAndFailsWithLockLost() {
    CompletableFuture<String> neverEnds = new CompletableFuture<>();

    CompletableFuture<String> result =
        redlock
            .withLockAsync(
                resource,
                options,
                lease -> {
                  for (int i = 0; i < 3; i++) {
                    nodes.node(i).pause();
                  }
                  return neverEnds;
                })
            .toCompletableFuture();

    assertThat(result)
        .failsWithin(Timing.AWAIT)
        .withThrowableThat()
        .withCauseInstanceOf(LockLostException.class);
    assertThat(neverEnds).isCancelled();
  }

  @Test
  void withLockAsync_workFailsOfItsOwnAfterTheLeaseIsLost_failsWithLockLostCausedByThatFailure() {
    CompletableFuture<String> result =
        redlock
            .withLockAsync(
                resource,
                options.withInterruptOnLoss(false),
                lease -> {
                  for (int i = 0; i < 3; i++) {
                    nodes.node(i).pause();
                  }
                  return lease
                      .lost()
                      .thenCompose(
                          loss ->
                              CompletableFuture.<String>failedFuture(
                                  new IOException("the work failed")));
                })
            .toCompletableFuture();

    assertThat(result)
        .failsWithin(Timing.AWAIT)
        .withThrowableThat()
        .havingCause()
        .isInstanceOf(LockLostException.class)
        .havingCause()
        .isInstanceOf(IOException.class);
  }

  @Test
  void withLockAsync_workCompletes_releasesAndReturnsItsValue() {
    CompletableFuture<String> result =
        redlock
            .withLockAsync(
                resource,
                options,
                lease -> CompletableFuture.supplyAsync(() -> "token " + lease.fencingToken()))
            .toCompletableFuture();

    assertThat(result).succeedsWithin(Timing.AWAIT).asString().startsWith("token ");
    await().atMost(Timing.AWAIT).until(() -> Cluster.holding(nodes, resource) == 0);
  }

  /** A client whose node timeout leaves renewal room in a TTL of about a second. */
  private static RedlockConfig.Builder renewing() {
    return RedlockConfig.builder()
        .nodes(nodes.uris())
        .nodeTimeout(Timing.scaled(Duration.ofMillis(100)))
        .connectTimeout(Timing.AWAIT)
        .retryDelay(Duration.ofMillis(20))
        .retryJitter(Duration.ofMillis(20));
  }
}
