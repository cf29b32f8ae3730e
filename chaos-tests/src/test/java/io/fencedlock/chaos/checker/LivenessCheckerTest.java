package io.fencedlock.chaos.checker;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

final class LivenessCheckerTest {
  private static final long BOUND = 1_000_000_000L;
  private final LivenessChecker checker = new LivenessChecker(BOUND);

  @Test
  void check_acquireSoonAfterFinalHeal_true() {
    var h = new Histories().finalHeal(100).acquire(300, 0, 1, 100).build();

    CheckResult result = checker.check(h);

    assertThat(result.verdict()).isEqualTo(Verdict.TRUE);
    assertThat(result.metrics()).containsEntry(LivenessChecker.METRIC, 201L);
  }

  @Test
  void check_firstAcquireAfterTheBound_false() {
    var h = new Histories().finalHeal(100).acquire(1500, 0, 1, 100).build();

    assertThat(checker.check(h).verdict()).isEqualTo(Verdict.FALSE);
  }

  @Test
  void check_noAcquireAfterHeal_false() {
    var h = new Histories().acquire(0, 0, 1, 100).finalHeal(100).build();

    assertThat(checker.check(h).verdict()).isEqualTo(Verdict.FALSE);
  }

  @Test
  void check_noFinalHeal_unknown() {
    var h = new Histories().acquire(0, 0, 1, 100).build();

    assertThat(checker.check(h).verdict()).isEqualTo(Verdict.UNKNOWN);
  }
}
