package io.fencedlock.chaos.checker;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

final class MutualExclusionCheckerTest {
  private final MutualExclusionChecker checker = new MutualExclusionChecker();

  @Test
  void check_sequentialHoldsReleasedBeforeNextAcquire_true() {
    var h = new Histories().acquire(0, 0, 1, 1000).release(100, 0).acquire(150, 1, 2, 1000).release(300, 1).build();

    CheckResult result = checker.check(h);

    assertThat(result.verdict()).isEqualTo(Verdict.TRUE);
    assertThat(result.metrics()).containsEntry("holds", 2L);
  }

  @Test
  void check_secondAcquireWhileFirstStillHolds_falseWithOneViolation() {
    var h = new Histories().acquire(0, 0, 1, 1000).acquire(200, 1, 2, 1000).release(500, 0).release(600, 1).build();

    CheckResult result = checker.check(h);

    assertThat(result.verdict()).isEqualTo(Verdict.FALSE);
    assertThat(result.violations()).isEqualTo(1);
    assertThat(result.details()).singleElement().asString().contains("process 0 (token 1) and 1 (token 2)");
  }

  @Test
  void check_firstHolderStalledPastValidity_notAnOverlap() {
    // Process 0's validity ends at 101 ms; it releases late, at 900 ms, but no longer believes it holds.
    var h = new Histories().acquire(0, 0, 1, 100).acquire(300, 1, 2, 1000).release(400, 1).release(900, 0).build();

    assertThat(checker.check(h).verdict()).isEqualTo(Verdict.TRUE);
  }

  @Test
  void check_emptyHistory_true() {
    assertThat(checker.check(new Histories().build()).verdict()).isEqualTo(Verdict.TRUE);
  }
}
