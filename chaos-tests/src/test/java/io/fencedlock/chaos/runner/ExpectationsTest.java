package io.fencedlock.chaos.runner;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencedlock.chaos.checker.Verdict;
import org.junit.jupiter.api.Test;

/** The experiments' expectations must be able to fail: each is shown a run that violates it. */
final class ExpectationsTest {
  private static RunMetrics metrics(
      long acq,
      long me,
      long token,
      long stale,
      long canary,
      long rejected,
      Verdict fenced,
      Verdict live) {
    return new RunMetrics(
        100, acq, 3, 3, me, token, stale, stale, canary, 10, rejected, 50, fenced, live);
  }

  private static final RunMetrics CLEAN = metrics(10, 0, 0, 0, 0, 0, Verdict.TRUE, Verdict.TRUE);

  @Test
  void minority_cleanRun_met() {
    assertThat(Experiments.MINORITY.check().unmet(CLEAN)).isEmpty();
  }

  @Test
  void minority_meOrTokenOrStaleViolation_unmet() {
    assertThat(
            Experiments.MINORITY
                .check()
                .unmet(metrics(10, 1, 0, 0, 0, 0, Verdict.TRUE, Verdict.TRUE)))
        .isNotEmpty();
    assertThat(
            Experiments.MINORITY
                .check()
                .unmet(metrics(10, 0, 2, 0, 0, 0, Verdict.TRUE, Verdict.TRUE)))
        .isNotEmpty();
    assertThat(
            Experiments.MINORITY
                .check()
                .unmet(metrics(10, 0, 0, 1, 0, 0, Verdict.FALSE, Verdict.TRUE)))
        .isNotEmpty();
    assertThat(
            Experiments.MINORITY
                .check()
                .unmet(metrics(10, 0, 0, 0, 0, 0, Verdict.UNKNOWN, Verdict.TRUE)))
        .isNotEmpty();
  }

  @Test
  void clientPause_canaryNeverBroken_unmetFaultDidNotBite() {
    assertThat(
            Experiments.CLIENT_PAUSE
                .check()
                .unmet(metrics(10, 0, 0, 0, 0, 2, Verdict.TRUE, Verdict.TRUE)))
        .anyMatch(s -> s.contains("did not bite"));
    assertThat(
            Experiments.CLIENT_PAUSE
                .check()
                .unmet(metrics(10, 0, 0, 0, 3, 2, Verdict.TRUE, Verdict.TRUE)))
        .isEmpty();
  }

  @Test
  void clockStep_meBrokenButFencingHolds_met() {
    assertThat(
            Experiments.CLOCK_STEP
                .check()
                .unmet(metrics(10, 4, 0, 0, 4, 2, Verdict.TRUE, Verdict.TRUE)))
        .isEmpty();
  }

  @Test
  void amnesiaUnsafe_noTokenViolation_unmetNegativeControl() {
    assertThat(Experiments.AMNESIA_UNSAFE.check().unmet(CLEAN))
        .anyMatch(s -> s.contains("negative control"));
  }

  @Test
  void majorityDown_noFailedAcquireOrNoRecovery_unmet() {
    RunMetrics noFailures =
        new RunMetrics(100, 10, 0, 0, 0, 0, 0, 0, 0, 10, 0, 50, Verdict.TRUE, Verdict.TRUE);
    assertThat(Experiments.MAJORITY_DOWN.check().unmet(noFailures)).isNotEmpty();
    assertThat(
            Experiments.MAJORITY_DOWN
                .check()
                .unmet(metrics(10, 0, 0, 0, 0, 0, Verdict.TRUE, Verdict.FALSE)))
        .isNotEmpty();
    assertThat(Experiments.MAJORITY_DOWN.check().unmet(CLEAN)).isEmpty();
  }
}
