package io.fencedlock.chaos.checker;

import static io.fencedlock.chaos.checker.Histories.w;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

final class CanaryCheckerTest {
  private final CanaryChecker checker = new CanaryChecker();

  @Test
  void check_everyAcknowledgedWriteInTheFinalValue_true() {
    var h =
        new Histories()
            .canary(0, 0, 1)
            .canary(10, 1, 2)
            .finalRead(20, "", Histories.value(w(0, 1), w(1, 2)))
            .build();

    assertThat(checker.check(h).verdict()).isEqualTo(Verdict.TRUE);
  }

  @Test
  void check_acknowledgedWriteMissing_falseLostUpdate() {
    // Process 0 read the canary, stalled; process 1 wrote; process 0 then overwrote it unseen.
    var h =
        new Histories()
            .canary(10, 1, 2)
            .canary(20, 0, 1)
            .finalRead(30, "", Histories.value(w(0, 1)))
            .build();

    CheckResult result = checker.check(h);

    assertThat(result.verdict()).isEqualTo(Verdict.FALSE);
    assertThat(result.metrics()).containsEntry(CanaryChecker.METRIC, 1L);
    assertThat(result.details()).singleElement().asString().contains("overwritten");
  }

  @Test
  void check_noFinalRead_unknown() {
    assertThat(checker.check(new Histories().canary(0, 0, 1).build()).verdict())
        .isEqualTo(Verdict.UNKNOWN);
  }
}
