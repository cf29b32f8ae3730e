package io.fencedlock.redlock;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

final class LockLostExceptionTest {

  @Test
  void message_namesEachNodesOutcome() {
    List<NodeOutcome> outcomes =
        List.of(
            new NodeOutcome("127.0.0.1:7001", NodeStatus.TIMED_OUT, ""),
            new NodeOutcome("127.0.0.1:7002", NodeStatus.GRANTED, ""));
    LeaseLoss loss =
        new LeaseLoss(
            LeaseLoss.Reason.RENEWAL_FAILED,
            "no renewal confirmed in time",
            outcomes,
            Duration.ZERO);

    assertThat(new LockLostException("orders", loss).getMessage())
        .contains("127.0.0.1:7001 TIMED_OUT")
        .contains("127.0.0.1:7002 GRANTED");
  }
}
