package io.fencedlock.redlock.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fencedlock.testkit.support.Timing;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The node-request timer, on real time: every wait here is bounded, none is a guess. */
final class RequestTimerTest {
  /** Long enough that a test thread answers a request in time even on a busy machine. */
  private static final Duration TIMEOUT = Duration.ofMillis(500);

  private final RequestTimer timer =
      new RequestTimer(TIMEOUT, new OwnThreads().factory("test-timeouts"));

  @AfterEach
  void close() {
    timer.close();
  }

  @Test
  void unansweredRequest_failsWithTimeout_notBeforeItsDeadline() throws Exception {
    long sent = System.nanoTime();
    CompletableFuture<String> request = timer.bound(new CompletableFuture<>());

    assertThatThrownBy(() -> request.get(Timing.AWAIT.toNanos(), TimeUnit.NANOSECONDS))
        .isInstanceOf(ExecutionException.class)
        .hasCauseInstanceOf(TimeoutException.class);
    assertThat(System.nanoTime() - sent).isGreaterThanOrEqualTo(TIMEOUT.toNanos());
  }

  @Test
  void answeredRequest_keepsItsValue_andLeavesTheQueueOnceDue() {
    CompletableFuture<String> request = timer.bound(new CompletableFuture<>());
    assertThat(request.complete("OK")).as("answered before the timeout").isTrue();

    await().atMost(Timing.AWAIT).until(() -> timer.queued() == 0);
    assertThat(request.join()).isEqualTo("OK");
  }

  @Test
  void requestAfterAnIdleSpell_stillTimesOut() throws Exception {
    CompletableFuture<String> first = timer.bound(new CompletableFuture<>());
    first.complete("OK"); // or timed out meanwhile: either way it leaves the queue
    await()
        .atMost(Timing.AWAIT)
        .until(() -> timer.queued() == 0); // the thread has nothing left to wait for

    CompletableFuture<String> second = timer.bound(new CompletableFuture<>());

    assertThatThrownBy(() -> second.get(Timing.AWAIT.toNanos(), TimeUnit.NANOSECONDS))
        .hasCauseInstanceOf(TimeoutException.class);
  }

  @Test
  void requestsBehindAnAnsweredOne_stillTimeOut() throws Exception {
    CompletableFuture<String> answered = timer.bound(new CompletableFuture<>());
    List<CompletableFuture<String>> unanswered = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      unanswered.add(timer.bound(new CompletableFuture<>()));
    }
    assertThat(answered.complete("OK")).as("answered before the timeout").isTrue();

    CompletableFuture.allOf(
            unanswered.stream()
                .map(r -> r.exceptionally(e -> null))
                .toArray(CompletableFuture[]::new))
        .get(Timing.AWAIT.toNanos(), TimeUnit.NANOSECONDS);
    assertThat(unanswered)
        .allSatisfy(r -> assertThatThrownBy(r::join).hasCauseInstanceOf(TimeoutException.class));
    assertThat(answered.join()).isEqualTo("OK");
  }

  @Test
  void requestsFromManyThreads_allTimeOut() throws Exception {
    List<CompletableFuture<String>> requests =
        java.util.Collections.synchronizedList(new ArrayList<>());
    List<Thread> senders = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      Thread sender =
          new Thread(
              () -> {
                for (int i = 0; i < 250; i++) {
                  requests.add(timer.bound(new CompletableFuture<>()));
                }
              });
      senders.add(sender);
      sender.start();
    }
    for (Thread sender : senders) {
      sender.join(Timing.AWAIT.toMillis());
    }

    assertThat(requests).hasSize(1000);
    CompletableFuture.allOf(
            requests.stream()
                .map(r -> r.exceptionally(e -> null))
                .toArray(CompletableFuture[]::new))
        .get(Timing.AWAIT.toNanos(), TimeUnit.NANOSECONDS);
    assertThat(requests)
        .allSatisfy(r -> assertThatThrownBy(r::join).hasCauseInstanceOf(TimeoutException.class));
  }

  @Test
  void close_failsPendingRequestsAtOnce_andLaterOnesImmediately() {
    RequestTimer slow =
        new RequestTimer(Duration.ofHours(1), new OwnThreads().factory("test-slow-timeouts"));
    CompletableFuture<String> pending = slow.bound(new CompletableFuture<>());

    slow.close();

    assertThat(pending).isCompletedExceptionally();
    assertThatThrownBy(pending::join).hasCauseInstanceOf(IllegalStateException.class);
    assertThat(slow.isRunning()).isFalse();
    assertThat(slow.bound(new CompletableFuture<String>())).isCompletedExceptionally();
  }
}
