package io.fencedlock.redlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

final class FuturesTest {

  @AfterEach
  void clearInterrupt() {
    Thread.interrupted();
  }

  @Test
  void await_oneFailureHandedToTwoCallers_carriesOneCallerStack() {
    IllegalStateException shared = new IllegalStateException("closed");

    for (int call = 0; call < 2; call++) {
      assertThatThrownBy(() -> Futures.await(CompletableFuture.failedFuture(shared), 1_000_000L))
          .isSameAs(shared)
          .hasMessage("closed");
    }

    assertThat(shared.getSuppressed()).hasSize(1).allMatch(s -> s instanceof Futures.CallerStack);
  }

  @Test
  void await_interruptedAsTheResultArrives_handsItToTheAbandonHandlerAndKeepsTheFlag() {
    List<String> abandoned = new ArrayList<>();
    // The result lands between the interrupt and the cancel: nobody else would ever see it.
    CompletableFuture<String> arrivesDuringTheInterrupt =
        new CompletableFuture<>() {
          @Override
          public String get(long timeout, TimeUnit unit) throws InterruptedException {
            complete("lease");
            throw new InterruptedException();
          }
        };

    assertThatThrownBy(
            () -> Futures.await(arrivesDuringTheInterrupt, 1_000_000_000L, abandoned::add))
        .isInstanceOf(RedlockException.class)
        .hasMessageContaining("interrupted");

    assertThat(abandoned).containsExactly("lease");
    assertThat(Thread.currentThread().isInterrupted()).isTrue();
  }

  @Test
  void await_interruptedBeforeAnyResult_cancelsTheStageAndAbandonsNothing() {
    List<String> abandoned = new ArrayList<>();
    CompletableFuture<String> never = new CompletableFuture<>();
    Thread.currentThread().interrupt();

    assertThatThrownBy(() -> Futures.await(never, 1_000_000_000L, abandoned::add))
        .isInstanceOf(RedlockException.class);

    assertThat(never).isCancelled();
    assertThat(abandoned).isEmpty();
  }

  @Test
  void checkNotInterrupted_flagSet_throwsWithoutClearingIt() {
    Thread.currentThread().interrupt();

    assertThatThrownBy(Futures::checkNotInterrupted).isInstanceOf(RedlockException.class);
    assertThat(Thread.currentThread().isInterrupted()).isTrue();
  }
}
