package io.fencedlock.chaos.runner;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencedlock.chaos.checker.CompositeResult;
import io.fencedlock.chaos.checker.Verdict;
import io.fencedlock.chaos.nemesis.FaultSchedule;
import io.fencedlock.testkit.Backend;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class CampaignReportTest {
  private static final RunEnvironment ENV =
      new RunEnvironment("6.2.11", "/x/redis-server", "abcdef012345", "1234abc", "libfaketime");

  private static RunReport run(Experiment e, long seed, Map<String, Long> counts, String unmet) {
    return new RunReport(
        e,
        seed,
        Backend.PROCESS,
        new FaultSchedule(List.of()),
        new RunMetrics(counts, Map.of()),
        new CompositeResult(Verdict.TRUE, List.of()),
        unmet.isEmpty() ? List.of() : List.of(unmet),
        1000,
        Path.of("out", e.name(), Long.toString(seed)),
        ENV);
  }

  @Test
  void markdown_sumsSafetyFiguresAndCoverage() {
    CampaignReport report =
        new CampaignReport(
            "./fencedlock chaos --campaign 3",
            List.of(
                run(
                    Experiments.MINORITY,
                    1,
                    Map.of(RunMetrics.OPERATIONS, 10L, "fault.partition", 2L, "partition.bit", 2L),
                    ""),
                run(Experiments.STORAGE, 2, Map.of(RunMetrics.WRITES_UNKNOWN, 3L), ""),
                run(Experiments.CLOCK_STEP, 3, Map.of(RunMetrics.ME, 4L), ""),
                run(Experiments.CLOCK_STROBE, 4, Map.of(RunMetrics.ME, 2L), "")),
            List.of(),
            Duration.ofSeconds(90));

    String md = report.markdown();

    assertThat(report.passedAll()).isTrue();
    assertThat(md)
        .contains("| schedules run | 4 |")
        .contains("| fenced writes of unknown outcome (`:info`) | 3 |")
        // clock-step's 4 are a control's; clock-strobe's 2 are reported apart
        .contains(
            "| mutual-exclusion violations (besides clock-strobe's, which each run reports, not"
                + " asserts) | 0 (clock-strobe: 2) |")
        .contains("| partition | 2 | 2 | 0 | 0 | 0 |")
        .contains("6.2.11")
        .contains("1234abc")
        .contains("| wall time | 1 min 30 s |");
  }

  @Test
  void passedAll_failedRunErrorOrNoUnknownWrite_false() {
    RunReport storageNoInfo = run(Experiments.STORAGE, 2, Map.of(), "");
    RunReport failed = run(Experiments.MINORITY, 1, Map.of(), "1 mutual-exclusion violations");

    assertThat(new CampaignReport("c", List.of(storageNoInfo), List.of(), Duration.ZERO).unmet())
        .singleElement()
        .asString()
        .contains("unknown outcome");
    assertThat(new CampaignReport("c", List.of(failed), List.of(), Duration.ZERO).passedAll())
        .isFalse();
    assertThat(
            new CampaignReport("c", List.of(), List.of("minority seed 1: boom"), Duration.ZERO)
                .passedAll())
        .isFalse();
    assertThat(new CampaignReport("c", List.of(failed), List.of(), Duration.ZERO).markdown())
        .contains("minority-faults seed 1: 1 mutual-exclusion violations");
  }

  @Test
  void unmet_clockStrobeRunsThatNeverCutALeaseShort() {
    List<RunReport> strobesNoOverlap = new java.util.ArrayList<>();
    for (int seed = 0; seed < CampaignReport.MIN_STROBE_RUNS; seed++) {
      strobesNoOverlap.add(run(Experiments.CLOCK_STROBE, seed, Map.of(), ""));
    }

    assertThat(new CampaignReport("c", strobesNoOverlap, List.of(), Duration.ZERO).unmet())
        .singleElement()
        .asString()
        .startsWith("clock-strobe runs together:");
    // Fewer runs than that may all miss: not required.
    assertThat(
            new CampaignReport("c", strobesNoOverlap.subList(0, 1), List.of(), Duration.ZERO)
                .unmet())
        .isEmpty();
  }

  @Test
  void markdown_powerLoss_saysWhichRunsWithTokenViolationsRolledACounterBack() {
    CampaignReport report =
        new CampaignReport(
            "c",
            List.of(
                run(
                    Experiments.POWER_LOSS,
                    1,
                    Map.of(
                        RunMetrics.POWER_LOSS_BYTES, 100L,
                        RunMetrics.POWER_LOSS_ROLLBACKS, 2L,
                        RunMetrics.TOKENS, 3L),
                    ""),
                run(Experiments.POWER_LOSS, 2, Map.of(RunMetrics.POWER_LOSS_BYTES, 50L), ""),
                run(
                    Experiments.POWER_LOSS,
                    3,
                    Map.of(RunMetrics.TOKENS, 1L, RunMetrics.ME, 1L),
                    "")),
            List.of(),
            Duration.ZERO);

    assertThat(report.markdown())
        .contains("| power-loss runs | 3 |")
        .contains("| bytes of append-only file cut | 150 |")
        .contains("| runs in which a counter rolled back | 1 |")
        .contains("| runs with token violations (of which a counter rolled back) | 2 (1) |")
        .contains("| runs with mutual-exclusion overlaps | 1 |");
  }
}
