package io.fencedlock.redlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fencedlock.testkit.RedisNodes;
import io.fencedlock.testkit.support.Timing;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/** The {@link java.util.concurrent.locks.Lock} adapter over real nodes. */
final class FencedLockIT {
  private static RedisNodes nodes;
  private Redlock redlock;
  private FencedLock lock;
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
  void setUp(TestInfo test) {
    resource = "jdklock:" + test.getTestMethod().orElseThrow().getName();
    redlock = Redlock.create(Cluster.config(nodes).build());
    lock =
        redlock.newLock(
            resource, LockOptions.defaults().withTtl(Timing.scaled(Duration.ofSeconds(2))));
  }

  @AfterEach
  void tearDown() {
    redlock.close();
  }

  @Test
  void lock_twiceByOneThread_isReentrantAndReleasedByTheLastUnlock() {
    lock.lock();
    long token = lock.fencingToken();
    lock.lock();

    assertThat(lock.fencingToken()).isEqualTo(token);
    lock.unlock();
    assertThat(lock.isHeldByCurrentThread()).isTrue();
    assertThat(Cluster.holding(nodes, resource)).isGreaterThanOrEqualTo(3);

    lock.unlock();
    assertThat(lock.isHeldByCurrentThread()).isFalse();
    Cluster.awaitNoKey(nodes, resource);
  }

  @Test
  void unlock_byAnotherThread_throwsIllegalMonitorState() throws Exception {
    lock.lock();
    try {
      CompletableFuture<Void> other = CompletableFuture.runAsync(lock::unlock);
      assertThat(other)
          .failsWithin(Timing.AWAIT)
          .withThrowableThat()
          .withCauseInstanceOf(IllegalMonitorStateException.class);
      CompletableFuture<Long> token = CompletableFuture.supplyAsync(lock::fencingToken);
      assertThat(token)
          .failsWithin(Timing.AWAIT)
          .withThrowableThat()
          .withCauseInstanceOf(IllegalMonitorStateException.class);
    } finally {
      lock.unlock();
    }
  }

  @Test
  void tryLock_heldByAnotherClient_failsAtOnceAndAfterItsTimeout() throws Exception {
    try (Lease held = redlock.acquire(resource, Duration.ofSeconds(30), LockTiming.RETRY_WAIT)) {
      assertThat(lock.tryLock()).isFalse();
      assertThat(lock.tryLock(200, TimeUnit.MILLISECONDS)).isFalse();
    }
    assertThat(lock.tryLock(LockTiming.RETRY_WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
    lock.unlock();
  }

  @Test
  void lockInterruptibly_interruptedWhileWaiting_throwsInterruptedAndHoldsNothing()
      throws Exception {
    try (Lease held = redlock.acquire(resource, Duration.ofSeconds(30), LockTiming.RETRY_WAIT)) {
      AtomicReference<Throwable> thrown = new AtomicReference<>();
      Thread waiter =
          new Thread(
              () -> {
                try {
                  lock.lockInterruptibly();
                } catch (Throwable e) {
                  thrown.set(e);
                }
              });
      waiter.start();
      await()
          .atMost(Timing.AWAIT)
          .until(() -> Cluster.releaseSubscribers(nodes, resource) > 0); // it waits

      waiter.interrupt();
      waiter.join(Timing.AWAIT.toMillis());

      assertThat(thrown.get()).isInstanceOf(InterruptedException.class);
    }
  }

  @Test
  void lock_heldByAnotherThreadOfThisProcess_waitsUntilItIsUnlocked() throws Exception {
    lock.lock();
    CompletableFuture<Long> second =
        CompletableFuture.supplyAsync(
            () -> {
              lock.lock();
              try {
                return lock.fencingToken();
              } finally {
                lock.unlock();
              }
            });
    long first = lock.fencingToken();
    assertThat(second).isNotDone();

    lock.unlock();

    assertThat(second)
        .succeedsWithin(Timing.AWAIT)
        .satisfies(token -> assertThat(token).isGreaterThan(first));
  }

  @Test
  void lock_holdersLeaseLostMeanwhile_anotherThreadStillWaitsForItsUnlock() throws Exception {
    FencedLock shortLived =
        redlock.newLock(
            resource, LockOptions.defaults().withTtl(Timing.scaled(Duration.ofMillis(1500))));
    shortLived.lock();
    try {
      for (int i = 0; i < 3; i++) {
        nodes.node(i).pause();
      }
      assertThat(shortLived.lease().lost().toCompletableFuture()).succeedsWithin(Timing.AWAIT);
      Cluster.heal(nodes);

      CompletableFuture<Boolean> other =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return shortLived.tryLock(200, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                  throw new IllegalStateException(e);
                }
              });
      assertThat(other)
          .succeedsWithin(Timing.AWAIT)
          .isEqualTo(false); // this thread still holds it here
      assertThat(shortLived.isHeldByCurrentThread()).isTrue();
    } finally {
      // No IllegalMonitorStateException (nobody took it over), but the loss.
      assertThatThrownBy(shortLived::unlock).isInstanceOf(LockLostException.class);
    }
    CompletableFuture<Boolean> after =
        CompletableFuture.supplyAsync(
            () -> {
              boolean held = shortLived.tryLock();
              if (held) {
                shortLived.unlock();
              }
              return held;
            });
    assertThat(after).succeedsWithin(Timing.AWAIT).isEqualTo(true);
  }

  @Test
  void unlock_afterAMajorityOfNodesStoppedAnswering_throwsLockLostOnceTheHoldIsGivenUp() {
    lock.lock();
    try {
      assertThat(lock.isHeld()).isTrue();
      Lease lease = lock.lease();
      for (int i = 0; i < 3; i++) {
        nodes.node(i).pause(); // as good as dead to renewal
      }

      assertThat(lease.lost().toCompletableFuture())
          .succeedsWithin(Timing.AWAIT)
          .satisfies(loss -> assertThat(loss.reason()).isEqualTo(LeaseLoss.Reason.RENEWAL_FAILED));
      assertThat(lock.isHeld()).as("the lock is lost").isFalse();
      assertThat(lock.isHeldByCurrentThread()).as("held here until unlocked").isTrue();
      assertThatThrownBy(lock::unlock)
          .isInstanceOf(LockLostException.class)
          .hasMessageContaining("RENEWAL_FAILED");
      assertThat(lock.isHeldByCurrentThread()).as("the hold is given up all the same").isFalse();
    } finally {
      Cluster.heal(nodes);
    }
  }

  @Test
  void unlock_innerHoldOfALostLock_throwsLockLostAndTheLastUnlockToo() {
    lock.lock();
    lock.lock();
    try {
      for (int i = 0; i < 3; i++) {
        nodes.node(i).pause();
      }
      assertThat(lock.lease().lost().toCompletableFuture()).succeedsWithin(Timing.AWAIT);

      assertThatThrownBy(lock::unlock).isInstanceOf(LockLostException.class);
      assertThat(lock.isHeldByCurrentThread()).isTrue();
      assertThatThrownBy(lock::unlock).isInstanceOf(LockLostException.class);
      assertThat(lock.isHeldByCurrentThread()).isFalse();
    } finally {
      Cluster.heal(nodes);
    }
  }

  @Test
  void unlock_withTheInterruptFlagSet_releasesAHealthyLockWithoutLockLost() {
    lock.lock();
    Thread.currentThread().interrupt();
    try {
      lock.unlock(); // the lease was valid: no loss to report
    } finally {
      assertThat(Thread.interrupted()).as("the flag is kept").isTrue();
    }
    assertThat(lock.isHeldByCurrentThread()).isFalse();
  }

  @Test
  void unlock_interruptedWhileTheReleaseWaitsForNodes_reportsNoLossForAHealthyLock() {
    lock.lock();
    try {
      for (int i = 0; i < 3; i++) {
        nodes.node(i).pause(); // the release cannot finish before the interrupt ends its wait
      }
      Thread.currentThread().interrupt();
      try {
        lock.unlock(); // the lease was valid when released: no loss to report
      } finally {
        assertThat(Thread.interrupted()).as("the flag is kept").isTrue();
      }
    } finally {
      Cluster.heal(nodes);
    }
    assertThat(lock.isHeldByCurrentThread()).isFalse();
  }

  @Test
  void newLock_renewalThatCannotWork_isRefusedBeforeAnyLocking() {
    assertThatThrownBy(
            () ->
                redlock.newLock(resource, LockOptions.defaults().withTtl(LockTiming.NODE_TIMEOUT)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(Cluster.holding(nodes, resource)).isZero();
  }

  @Test
  void tryLock_withTheInterruptFlagSet_makesItsAttemptAndKeepsTheFlag() {
    Thread.currentThread().interrupt();
    boolean held;
    try {
      held = lock.tryLock(); // Lock.tryLock() is not interruptible
    } finally {
      assertThat(Thread.interrupted()).as("the flag is kept").isTrue();
    }
    assertThat(held).isTrue();
    lock.unlock();
  }

  @Test
  void lock_leaseTooLateToRenewWhenItArrives_isGivenBackAndAnotherTaken() {
    FakeTicker ticker = new FakeTicker();
    Duration ttl = Timing.scaled(Duration.ofSeconds(2));
    AtomicReference<Lease> lateOne = new AtomicReference<>();
    try (Redlock client = Redlock.create(Cluster.config(nodes).ticker(ticker).build())) {
      // The first lease arrives with too little validity left for a renewal to finish (as after
      // a slow acquire), though it is still valid.
      Redlock slowToArrive =
          (Redlock)
              Proxy.newProxyInstance(
                  Redlock.class.getClassLoader(),
                  new Class<?>[] {Redlock.class},
                  (proxy, method, args) -> {
                    Object result;
                    try {
                      result = method.invoke(client, args);
                    } catch (InvocationTargetException e) {
                      throw e.getCause();
                    }
                    if (method.getName().equals("acquire")
                        && lateOne.compareAndSet(null, (Lease) result)) {
                      ticker.advance(ttl.multipliedBy(9).dividedBy(10));
                    }
                    return result;
                  });
      FencedLock late = new FencedLock(slowToArrive, resource, LockOptions.defaults().withTtl(ttl));

      late.lock();
      try {
        assertThat(late.lease()).as("not the late lease").isNotSameAs(lateOne.get());
        assertThat(lateOne.get().lost().toCompletableFuture())
            .as("the late lease was lost")
            .isCompletedWithValueMatching(loss -> loss.reason() == LeaseLoss.Reason.RENEWAL_FAILED);
        assertThat(late.lease().isValid()).isTrue();
        assertThat(late.lease().lost().toCompletableFuture()).isNotDone();
      } finally {
        late.unlock();
      }
    }
  }

  @Test
  void newCondition_isUnsupported() {
    assertThatThrownBy(lock::newCondition).isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void lock_heldLongerThanItsTtl_isKeptAliveByRenewal() {
    lock.lock();
    try {
      Lease lease = lock.lease();
      await()
          .during(Timing.scaled(Duration.ofSeconds(4)))
          .atMost(Timing.scaled(Duration.ofSeconds(5)))
          .until(lease::isValid);
    } finally {
      lock.unlock();
    }
  }
}
