package io.fencedlock.storage.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fencedlock.testkit.support.Timing;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The admission point: a full queue refuses at once, and what was admitted still runs. */
final class StoreWorkersTest {

  @Test
  void submit_threadsBusyAndQueueFull_overloadedAndCallNeverRuns() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch started = new CountDownLatch(1);
    boolean[] refusedRan = {false};
    try (StoreWorkers workers = new StoreWorkers(1, 1)) {
      CompletableFuture<String> running =
          workers.submit(
              () -> {
                started.countDown();
                await(release);
                return "running";
              });
      assertThat(started.await(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
      CompletableFuture<String> queued = workers.submit(() -> "queued");

      assertThatThrownBy(() -> workers.submit(() -> refusedRan[0] = true))
          .isInstanceOf(StoreWorkers.Overloaded.class)
          .hasMessageContaining("nothing was changed");
      assertThat(workers.queued()).isEqualTo(1);

      release.countDown();
      assertThat(running.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS)).isEqualTo("running");
      assertThat(queued.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS)).isEqualTo("queued");
      assertThat(workers.shutdown(Timing.AWAIT)).isTrue();
    }
    assertThat(refusedRan[0]).isFalse();
  }

  @Test
  void submit_callThrows_futureFailsWithIt() {
    try (StoreWorkers workers = new StoreWorkers(1, 1)) {
      CompletableFuture<Object> failed =
          workers.submit(
              () -> {
                throw new IllegalStateException("boom");
              });

      assertThatThrownBy(() -> failed.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS))
          .hasCauseInstanceOf(IllegalStateException.class);
    }
  }

  @Test
  void submit_afterShutdown_overloaded() throws Exception {
    StoreWorkers workers = new StoreWorkers(1, 1);
    assertThat(workers.shutdown(Timing.AWAIT)).isTrue();

    assertThatThrownBy(() -> workers.submit(() -> "late"))
        .isInstanceOf(StoreWorkers.Overloaded.class);
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
