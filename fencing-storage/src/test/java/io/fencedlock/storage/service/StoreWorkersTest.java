package io.fencedlock.storage.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fencedlock.testkit.support.Timing;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The admission point: a full queue refuses at once, what was admitted still runs, and what waited
 * too long or lost its connection is skipped.
 */
final class StoreWorkersTest {
  private static final BooleanSupplier CONNECTED = () -> true;

  @Test
  void submit_threadsBusyAndQueueFull_overloadedAndCallNeverRuns() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch started = new CountDownLatch(1);
    AtomicBoolean refusedRan = new AtomicBoolean();
    try (StoreWorkers workers = new StoreWorkers(1, 1, Timing.AWAIT)) {
      CompletableFuture<String> running = workers.submit(CONNECTED, blockUntil(started, release));
      assertThat(started.await(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
      CompletableFuture<String> queued = workers.submit(CONNECTED, () -> "queued");

      assertThatThrownBy(() -> workers.submit(CONNECTED, () -> refusedRan.getAndSet(true)))
          .isInstanceOf(StoreWorkers.Overloaded.class)
          .hasMessageContaining("nothing was changed");
      assertThat(workers.queued()).isEqualTo(1);

      release.countDown();
      assertThat(running.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS)).isEqualTo("running");
      assertThat(queued.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS)).isEqualTo("queued");
      assertThat(workers.shutdown(Timing.AWAIT)).isTrue();
    }
    assertThat(refusedRan).isFalse();
  }

  @Test
  void submit_connectionClosedWhileQueued_skippedAndCallNeverRuns() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch started = new CountDownLatch(1);
    AtomicBoolean connected = new AtomicBoolean(true);
    AtomicBoolean skippedRan = new AtomicBoolean();
    try (StoreWorkers workers = new StoreWorkers(1, 1, Timing.AWAIT)) {
      CompletableFuture<String> running = workers.submit(CONNECTED, blockUntil(started, release));
      assertThat(started.await(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
      CompletableFuture<Boolean> queued =
          workers.submit(connected::get, () -> skippedRan.getAndSet(true));

      connected.set(false);
      release.countDown();

      assertThat(running.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS)).isEqualTo("running");
      assertExpired(queued, StoreWorkers.Expired.Reason.CONNECTION_CLOSED);
    }
    assertThat(skippedRan).isFalse();
  }

  @Test
  void submit_waitedLongerThanQueueTimeout_skippedAndCallNeverRuns() {
    AtomicBoolean skippedRan = new AtomicBoolean();
    // Any call waits more than a nanosecond between submit and a thread taking it up.
    try (StoreWorkers workers = new StoreWorkers(1, 1, Duration.ofNanos(1))) {
      CompletableFuture<Boolean> late = workers.submit(CONNECTED, () -> skippedRan.getAndSet(true));

      assertExpired(late, StoreWorkers.Expired.Reason.QUEUE_TIMEOUT);
    }
    assertThat(skippedRan).isFalse();
  }

  @Test
  void submit_callThrows_futureFailsWithIt() {
    try (StoreWorkers workers = new StoreWorkers(1, 1, Timing.AWAIT)) {
      CompletableFuture<Object> failed =
          workers.submit(
              CONNECTED,
              () -> {
                throw new IllegalStateException("boom");
              });

      assertThatThrownBy(() -> failed.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS))
          .hasCauseInstanceOf(IllegalStateException.class);
    }
  }

  @Test
  void submit_afterShutdown_overloaded() throws Exception {
    StoreWorkers workers = new StoreWorkers(1, 1, Timing.AWAIT);
    assertThat(workers.shutdown(Timing.AWAIT)).isTrue();

    assertThatThrownBy(() -> workers.submit(CONNECTED, () -> "late"))
        .isInstanceOf(StoreWorkers.Overloaded.class);
  }

  private static void assertExpired(CompletableFuture<?> call, StoreWorkers.Expired.Reason reason) {
    assertThatThrownBy(() -> call.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS))
        .isInstanceOf(ExecutionException.class)
        .cause()
        .isInstanceOfSatisfying(
            StoreWorkers.Expired.class, e -> assertThat(e.reason()).isEqualTo(reason))
        .hasMessageContaining("nothing was changed");
  }

  private static Supplier<String> blockUntil(CountDownLatch started, CountDownLatch release) {
    return () -> {
      started.countDown();
      await(release);
      return "running";
    };
  }

  private static void await(CountDownLatch latch) {
    try {
      if (!latch.await(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new IllegalStateException("not released in time");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
