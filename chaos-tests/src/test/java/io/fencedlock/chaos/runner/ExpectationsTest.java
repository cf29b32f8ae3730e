package io.fencedlock.chaos.runner;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencedlock.chaos.checker.Verdict;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The experiments' expectations must be able to fail: each is shown a run that violates it. */
final class ExpectationsTest {
  private static final String[] CHECKERS = {
    "mutual-exclusion",
    "tokens",
    "fenced-resource",
    "list-append-fenced",
    "canary",
    "list-append-canary",
    "storage-durability",
    "liveness",
    "faults"
  };

  /** Metrics built up from a clean run (every checker TRUE, progress, clear failures). */
  private static final class M {
    private final Map<String, Long> counts = new HashMap<>();
    private final Map<String, Verdict> verdicts = new HashMap<>();

    M() {
      counts.put(RunMetrics.ACQUISITIONS, 10L);
      counts.put(RunMetrics.ACQUIRE_FAILURES, 3L);
      counts.put(RunMetrics.CLEAR_ACQUIRE_ERRORS, 3L);
      counts.put(RunMetrics.RECOVERY_MILLIS, 50L);
      for (String c : CHECKERS) {
        verdicts.put(c, Verdict.TRUE);
      }
    }

    M count(String name, long value) {
      counts.put(name, value);
      return this;
    }

    M verdict(String checker, Verdict v) {
      verdicts.put(checker, v);
      return this;
    }

    RunMetrics build() {
      return new RunMetrics(counts, verdicts);
    }
  }

  private static RunMetrics clean() {
    return new M().build();
  }

  @Test
  void minority_cleanRun_met() {
    assertThat(Experiments.MINORITY.check().unmet(clean())).isEmpty();
  }

  @Test
  void minority_meOrTokenOrStaleOrListAppendViolation_unmet() {
    var check = Experiments.MINORITY.check();
    assertThat(check.unmet(new M().count(RunMetrics.ME, 1).build())).isNotEmpty();
    assertThat(check.unmet(new M().count(RunMetrics.TOKENS, 2).build())).isNotEmpty();
    assertThat(
            check.unmet(
                new M()
                    .count(RunMetrics.STALE_ACCEPTED, 1)
                    .verdict("fenced-resource", Verdict.FALSE)
                    .build()))
        .isNotEmpty();
    assertThat(check.unmet(new M().verdict("fenced-resource", Verdict.UNKNOWN).build()))
        .isNotEmpty();
    assertThat(check.unmet(new M().verdict("list-append-fenced", Verdict.FALSE).build()))
        .anyMatch(s -> s.contains("list-append"));
  }

  @Test
  void everyExperiment_faultFailedToApply_unmet() {
    RunMetrics failed = new M().count(RunMetrics.FAULT_FAILURES, 1).build();
    for (Experiment e : Experiments.all()) {
      assertThat(e.check().unmet(failed)).as(e.name()).anyMatch(s -> s.contains("failed to apply"));
    }
  }

  @Test
  void minority_faultShowedNoEffect_unmet() {
    assertThat(
            Experiments.MINORITY.check().unmet(new M().count(RunMetrics.FAULTS_MISSED, 1).build()))
        .anyMatch(s -> s.contains("no effect"));
  }

  @Test
  void clientPause_canaryNeverBroken_unmetFaultDidNotBite() {
    M bitten =
        new M()
            .count(RunMetrics.WRITES_REJECTED, 2)
            .count(RunMetrics.SIGNALS, 1)
            .count(RunMetrics.CANARY, 3)
            .verdict("canary", Verdict.FALSE)
            .verdict("list-append-canary", Verdict.FALSE);
    assertThat(Experiments.CLIENT_PAUSE.check().unmet(bitten.build())).isEmpty();
    assertThat(
            Experiments.CLIENT_PAUSE
                .check()
                .unmet(
                    new M()
                        .count(RunMetrics.WRITES_REJECTED, 2)
                        .count(RunMetrics.SIGNALS, 1)
                        .build()))
        .anyMatch(s -> s.contains("did not bite"));
  }

  @Test
  void clockStep_meBrokenButFencingHolds_met() {
    assertThat(Experiments.CLOCK_STEP.check().unmet(new M().count(RunMetrics.ME, 4).build()))
        .isEmpty();
    assertThat(Experiments.CLOCK_STEP.check().unmet(clean()))
        .anyMatch(s -> s.contains("did not bite"));
  }

  @Test
  void amnesiaUnsafe_noTokenViolation_unmetNegativeControl() {
    assertThat(Experiments.AMNESIA_UNSAFE.check().unmet(clean()))
        .anyMatch(s -> s.contains("negative control"));
  }

  @Test
  void amnesiaSafe_lockGrantedAfterTheWipe_unmet() {
    assertThat(Experiments.AMNESIA_SAFE.check().unmet(clean()))
        .anyMatch(s -> s.contains("granted after a majority"));
    assertThat(
            Experiments.AMNESIA_SAFE
                .check()
                .unmet(new M().verdict("liveness", Verdict.FALSE).build()))
        .isEmpty();
  }

  @Test
  void unfencedStore_checkersTrue_unmetNegativeControl() {
    RunMetrics signalled = new M().count(RunMetrics.SIGNALS, 2).build();
    assertThat(Experiments.UNFENCED_STORE.check().unmet(signalled))
        .anyMatch(s -> s.contains("negative control"));
    assertThat(
            Experiments.UNFENCED_STORE
                .check()
                .unmet(
                    new M()
                        .count(RunMetrics.SIGNALS, 2)
                        .verdict("fenced-resource", Verdict.FALSE)
                        .verdict("list-append-fenced", Verdict.FALSE)
                        .build()))
        .isEmpty();
  }

  @Test
  void storageWipe_durabilityHeld_unmetNegativeControl() {
    assertThat(Experiments.STORAGE_WIPE.check().unmet(clean()))
        .anyMatch(s -> s.contains("negative control"));
    assertThat(
            Experiments.STORAGE_WIPE
                .check()
                .unmet(new M().verdict("storage-durability", Verdict.FALSE).build()))
        .isEmpty();
  }

  @Test
  void readmission_noEpochFromTheHighWaterMark_unmet() {
    assertThat(Experiments.READMISSION.check().unmet(clean()))
        .anyMatch(s -> s.contains("high-water mark"));
    assertThat(
            Experiments.READMISSION
                .check()
                .unmet(new M().count(RunMetrics.READMISSIONS_BY_HIGH_WATER, 1).build()))
        .isEmpty();
  }

  @Test
  void majorityDown_noFailedAcquireOrNoRecovery_unmet() {
    RunMetrics noFailures =
        new M()
            .count(RunMetrics.ACQUIRE_FAILURES, 0)
            .count(RunMetrics.CLEAR_ACQUIRE_ERRORS, 0)
            .build();
    assertThat(Experiments.MAJORITY_DOWN.check().unmet(noFailures)).isNotEmpty();
    assertThat(
            Experiments.MAJORITY_DOWN
                .check()
                .unmet(new M().verdict("liveness", Verdict.FALSE).build()))
        .isNotEmpty();
    assertThat(Experiments.MAJORITY_DOWN.check().unmet(clean())).isEmpty();
  }
}
