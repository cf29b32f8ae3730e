package io.fencedlock.faultproxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencedlock.testkit.support.Timing;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.Selector;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The sub-millisecond wake-up of the proxy's I/O loop: which waits the loop hands to the alarm
 * (pure), and that the alarm wakes a selector blocked without any timeout of its own, never before
 * the deadline.
 */
final class SelectorAlarmTest {

  private static final long US = 1_000L;
  private static final long MS = 1_000_000L;

  @Test
  void selectMillis_roundsUpSoTheSelectNeverReturnsEarly() {
    assertThat(IoLoop.selectMillis(1)).isEqualTo(1);
    assertThat(IoLoop.selectMillis(300 * US)).isEqualTo(1);
    assertThat(IoLoop.selectMillis(MS)).isEqualTo(1);
    assertThat(IoLoop.selectMillis(MS + 1)).isEqualTo(2);
  }

  @Test
  void needsAlarm_whenTheSelectWouldOversleepByMoreThanATenthOfAMillisecond() {
    assertThat(IoLoop.needsAlarm(300 * US)).as("0.3 ms would sleep 1 ms").isTrue();
    assertThat(IoLoop.needsAlarm(1_200 * US)).as("1.2 ms would sleep 2 ms").isTrue();
    assertThat(IoLoop.needsAlarm(950 * US)).as("0.95 ms sleeps 1 ms: close enough").isFalse();
    assertThat(IoLoop.needsAlarm(2 * MS)).as("whole milliseconds").isFalse();
  }

  @Test
  void wakeAt_wakesASelectWithoutTimeout_notBeforeTheDeadline() throws Exception {
    try (Selector selector = Selector.open();
        SelectorAlarm alarm = SelectorAlarm.start(selector, "test-alarm")) {
      CompletableFuture<Long> returnedAt = selectOnce(selector);
      long due = System.nanoTime() + 300 * US;

      alarm.wakeAt(due);

      // A bound on waiting for liveness, not on speed: without the alarm this never returns.
      assertThat(returnedAt.get(Timing.AWAIT.toNanos(), TimeUnit.NANOSECONDS) - due)
          .isNotNegative();
    }
  }

  @Test
  void wakeAt_earlierThanThePendingRequest_replacesIt() throws Exception {
    try (Selector selector = Selector.open();
        SelectorAlarm alarm = SelectorAlarm.start(selector, "test-alarm")) {
      alarm.wakeAt(System.nanoTime() + TimeUnit.HOURS.toNanos(1));
      CompletableFuture<Long> returnedAt = selectOnce(selector);
      long due = System.nanoTime() + 300 * US;

      alarm.wakeAt(due);

      assertThat(returnedAt.get(Timing.AWAIT.toNanos(), TimeUnit.NANOSECONDS) - due)
          .isNotNegative();
    }
  }

  /** Blocks one thread in {@code select()} with no timeout; completes with the time it returned. */
  private static CompletableFuture<Long> selectOnce(Selector selector) {
    return CompletableFuture.supplyAsync(
        () -> {
          try {
            selector.select();
            return System.nanoTime();
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        });
  }
}
