package io.fencedlock.chaos.checker;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

final class CanaryCheckerTest {
  private final CanaryChecker checker = new CanaryChecker();

  @Test
  void check_eachWriteOverwritesWhatItRead_true() {
    var h = new Histories().canary(0, 0, 1, 0, 0).canary(10, 1, 2, 1, 1).build();

    assertThat(checker.check(h).verdict()).isEqualTo(Verdict.TRUE);
  }

  @Test
  void check_writeOverwritesANewerVersion_falseLostUpdate() {
    // Process 0 read version 0, stalled; process 1 wrote version 1; process 0 then overwrote it.
    var h = new Histories().canary(10, 1, 2, 0, 0).canary(20, 0, 1, 0, 1).build();

    CheckResult result = checker.check(h);

    assertThat(result.verdict()).isEqualTo(Verdict.FALSE);
    assertThat(result.metrics()).containsEntry(CanaryChecker.METRIC, 1L);
    assertThat(result.details())
        .singleElement()
        .asString()
        .contains("read version 0 but overwrote version 1");
  }
}
