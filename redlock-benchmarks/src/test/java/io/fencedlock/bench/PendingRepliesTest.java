package io.fencedlock.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

final class PendingRepliesTest {

  @Test
  void poll_returnsHandlersOldestFirst_acrossTheRingsEnd() {
    PendingReplies pending = new PendingReplies(4);
    List<ReplyHandler> offered = new ArrayList<>();
    List<ReplyHandler> polled = new ArrayList<>();
    for (int round = 0; round < 5; round++) { // 15 handlers through 4 slots
      for (int i = 0; i < 3; i++) {
        ReplyHandler handler = (kind, integer, error) -> {};
        assertThat(pending.offer(handler)).isTrue();
        offered.add(handler);
      }
      for (int i = 0; i < 3; i++) {
        polled.add(pending.poll());
      }
    }

    assertThat(polled).containsExactlyElementsOf(offered);
    assertThat(pending.poll()).isNull();
  }

  @Test
  void offer_fullRing_refusesUntilOneIsPolled() {
    PendingReplies pending = new PendingReplies(2);
    ReplyHandler handler = (kind, integer, error) -> {};
    pending.offer(handler);
    pending.offer(handler);

    assertThat(pending.offer(handler)).isFalse();
    assertThat(pending.size()).isEqualTo(2);
    pending.poll();
    assertThat(pending.offer(handler)).isTrue();
  }

  @Test
  void create_capacityNotAPowerOfTwo_isRefused() {
    assertThatThrownBy(() -> new PendingReplies(3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("capacity");
  }
}
