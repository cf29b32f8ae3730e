package io.fencedlock.chaos.runner;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencedlock.chaos.checker.CheckResult;
import io.fencedlock.chaos.checker.CompositeResult;
import io.fencedlock.chaos.checker.Verdict;
import io.fencedlock.chaos.nemesis.FaultSchedule;
import io.fencedlock.testkit.Backend;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class StoredReportsTest {
  @TempDir Path dir;

  private RunReport written(Experiment e, long seed, String unmet) throws Exception {
    FaultSchedule schedule = ExperimentRunner.schedule(e, seed);
    Path runDir = Files.createDirectories(dir.resolve(e.name()).resolve("run-" + seed));
    RunReport report =
        new RunReport(
            e,
            seed,
            Backend.PROCESS,
            schedule,
            new RunMetrics(
                Map.of(RunMetrics.OPERATIONS, 12L, RunMetrics.WRITES_UNKNOWN, 2L),
                Map.of("tokens", Verdict.TRUE)),
            new CompositeResult(
                Verdict.TRUE, List.of(CheckResult.of("tokens", 0, Map.of(), List.of()))),
            unmet.isEmpty() ? List.of() : List.of(unmet),
            1234,
            runDir,
            new RunEnvironment("6.2.11", "/r", "abc", "c0ffee", "libfaketime"));
    RunFiles.writeResults(report);
    return report;
  }

  @Test
  void under_runsWrittenByACampaign_readBackForTheAggregate() throws Exception {
    RunReport storage = written(Experiments.STORAGE, 5, "");
    RunReport minority = written(Experiments.MINORITY, 9, "1 mutual-exclusion violations");

    List<RunReport> read = StoredReports.under(dir);

    assertThat(read).hasSize(2);
    RunReport first = read.get(0); // catalogue order: minority-faults before storage-faults
    assertThat(first.experiment().name()).isEqualTo(minority.experiment().name());
    assertThat(first.seed()).isEqualTo(9);
    assertThat(first.unmet()).containsExactly("1 mutual-exclusion violations");
    assertThat(first.schedule()).isEqualTo(minority.schedule());
    RunReport second = read.get(1);
    assertThat(second.metrics().get(RunMetrics.WRITES_UNKNOWN)).isEqualTo(2);
    assertThat(second.metrics().verdict("tokens")).isEqualTo(Verdict.TRUE);
    assertThat(second.environment()).isEqualTo(storage.environment());
    assertThat(second.durationMillis()).isEqualTo(1234);
  }
}
