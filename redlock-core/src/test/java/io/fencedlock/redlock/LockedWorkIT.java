package io.fencedlock.redlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fencedlock.testkit.RedisNodes;
import io.fencedlock.testkit.support.Timing;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
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
  private static final Duration TTL = Timing.scaled(Duration.ofMillis(600));
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
    redlock = Redlock.create(Cluster.config(nodes).build());
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

    String result = redlock.withLock(resource, options, lease -> {
      token.set(lease.fencingToken());
      assertThat(Cluster.holdingValue(nodes, resource, lease.ownerId())).isGreaterThanOrEqualTo(3);
      return "done";
    });

    assertThat(result).isEqualTo("done");
    assertThat(token.get()).isPositive();
    Cluster.awaitNoKey(nodes, resource);
  }

  @Test
  void withLock_workThrowsCheckedException_passesItOnAndReleases() {
    assertThatThrownBy(() -> redlock.withLock(resource, options, lease -> {
      throw new IOException("the work failed");
    })).isInstanceOf(IOException.class).hasMessage("the work failed");

    Cluster.awaitNoKey(nodes, resource);
  }

  @Test
  void withLock_leaseLostWhileWorking_interruptsTheWorkThenThrowsLockLost() {
    AtomicBoolean interrupted = new AtomicBoolean();

    assertThatThrownBy(() -> redlock.withLock(resource, options, lease -> {
      for (int i = 0; i < 3; i++) {
        nodes.node(i).pause(); // renewal can no longer get a quorum
      }
      try {
        new CountDownLatch(1).await(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS); // work until told
      } catch (InterruptedException e) {
        interrupted.set(true);
      }
      return "unreachable";
    })).isInstanceOf(LockLostException.class).hasMessageContaining("RENEWAL_FAILED");

    assertThat(interrupted).as("the work was interrupted").isTrue();
    assertThat(Thread.currentThread().isInterrupted()).as("no interrupt leaks to the caller").isFalse();
  }

  @Test
  void withLock_heldElsewhere_throwsAcquisitionFailureWithoutRunningTheWork() {
    AtomicBoolean ran = new AtomicBoolean();
    try (Lease held = redlock.acquire(resource, Duration.ofSeconds(30), LockTiming.RETRY_WAIT)) {
      assertThatThrownBy(() -> redlock.withLock(resource, options.withMaxWait(Duration.ZERO), lease -> ran.getAndSet(true)))
          .isInstanceOf(LockAcquisitionException.class);
    }
    assertThat(ran).isFalse();
  }

  @Test
  void withLockAsync_leaseLost_cancelsTheWorkAndFailsWithLockLost() {
    CompletableFuture<String> neverEnds = new CompletableFuture<>();

    CompletableFuture<String> result = redlock.withLockAsync(resource, options, lease -> {
      for (int i = 0; i < 3; i++) {
        nodes.node(i).pause();
      }
      return neverEnds;
    }).toCompletableFuture();

    assertThat(result).failsWithin(Timing.AWAIT).withThrowableThat().withCauseInstanceOf(LockLostException.class);
    assertThat(neverEnds).isCancelled();
  }

  @Test
  void withLockAsync_workCompletes_releasesAndReturnsItsValue() {
    CompletableFuture<String> result = redlock.withLockAsync(resource, options,
        lease -> CompletableFuture.supplyAsync(() -> "token " + lease.fencingToken())).toCompletableFuture();

    assertThat(result).succeedsWithin(Timing.AWAIT).asString().startsWith("token ");
    await().atMost(Timing.AWAIT).until(() -> Cluster.holding(nodes, resource) == 0);
  }
}
