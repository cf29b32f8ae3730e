package io.fencedlock.redlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

final class ResourceNamesTest {
  private static final String HUGE = "r".repeat(1_000_000);

  @Test
  void quoted_shortName_isTheWholeName() {
    assertThat(ResourceNames.quoted("orders:42")).isEqualTo("'orders:42'");
    assertThat(ResourceNames.quoted("x".repeat(100))).isEqualTo("'" + "x".repeat(100) + "'");
  }

  @Test
  void quoted_longName_isCutAndSaysHowLongItWas() {
    assertThat(ResourceNames.quoted("x".repeat(101)))
        .isEqualTo("'" + "x".repeat(100) + "…' (101 chars)");
  }

  @Test
  void quoted_cutInsideASurrogatePair_keepsThePairWhole() {
    String name = "x".repeat(99) + "\uD83D\uDD12" + "tail"; // a lock emoji at index 99..100

    assertThat(ResourceNames.quoted(name)).isEqualTo("'" + "x".repeat(99) + "…' (105 chars)");
  }

  @Test
  void messages_namingAHugeResource_stayShort() {
    List<NodeOutcome> outcomes = List.of(new NodeOutcome("127.0.0.1:6379", NodeStatus.REFUSED, ""));
    assertThat(new LockAcquisitionException(HUGE, 1, "refused", outcomes).getMessage())
        .hasSizeLessThan(300)
        .contains("(1000000 chars)");
    LeaseLoss loss = new LeaseLoss(LeaseLoss.Reason.EXPIRED, "gone", outcomes, Duration.ZERO);
    assertThat(new LockLostException(HUGE, loss).getMessage()).hasSizeLessThan(300);
    assertThatThrownBy(() -> new KeySpace("").checkResource("resource", "{" + HUGE + "}"))
        .isInstanceOf(IllegalArgumentException.class)
        .satisfies(e -> assertThat(e.getMessage()).hasSizeLessThan(500));
  }
}
