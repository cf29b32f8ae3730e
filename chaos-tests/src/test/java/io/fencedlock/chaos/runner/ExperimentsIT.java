package io.fencedlock.chaos.runner;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencedlock.chaos.checker.DurabilityChecker;
import io.fencedlock.chaos.checker.Verdict;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The CI-sized subset, against real Redis processes, client processes, proxies and the storage
 * service, each with one to three faults: every negative control (each checker must fail on a real
 * run: mutual exclusion, tokens, canary and list-append, fenced resource, durability, liveness),
 * two safety experiments, and a replay from {@code results.json}; each expectation must hold. Seeds
 * are random and logged; {@code -Dfencedlock.chaos.seed=N} replays. The campaign is {@code
 * ./fencedlock chaos --campaign N} or {@link CampaignChaosIT}.
 */
final class ExperimentsIT {
  private final ExperimentRunner runner =
      new ExperimentRunner(Path.of("target", "chaos"), System.out);

  private RunReport run(Experiment experiment, int faults) {
    RunReport report = runner.run(experiment.withFaults(faults), Seeds.next(experiment.name()));
    assertThat(report.dir().resolve("history.jsonl")).exists();
    assertThat(report.dir().resolve("results.json")).exists();
    assertThat(report.dir().resolve("timeline.html")).exists();
    return report;
  }

  @Test
  void minorityFaults_safetyHolds() {
    RunReport report = run(Experiments.MINORITY, 3);

    assertThat(report.unmet()).as("seed " + report.seed()).isEmpty();
  }

  @Test
  void clientPause_canaryBreaksFencingHolds() {
    RunReport report = run(Experiments.CLIENT_PAUSE, 2);

    assertThat(report.unmet()).as("seed " + report.seed()).isEmpty();
    assertThat(report.metrics().canaryViolations()).isPositive();
    assertThat(report.metrics().staleWritesAccepted()).isZero();
  }

  @Test
  void clockStep_mutualExclusionBreaksFencingHolds() {
    RunReport report = run(Experiments.CLOCK_STEP, 1);

    assertThat(report.unmet()).as("seed " + report.seed()).isEmpty();
    assertThat(report.metrics().meViolations()).isPositive();
    assertThat(report.metrics().staleWritesAccepted()).isZero();
  }

  @Test
  void amnesiaWithoutInitCheck_tokenViolationsFound() {
    RunReport report = run(Experiments.AMNESIA_UNSAFE, 1);

    assertThat(report.metrics().tokenViolations())
        .as("negative control, seed " + report.seed())
        .isPositive();
  }

  @Test
  void amnesiaWithInitCheck_noTokenViolation() {
    RunReport report = run(Experiments.AMNESIA_SAFE, 1);

    assertThat(report.unmet()).as("seed " + report.seed()).isEmpty();
    assertThat(report.metrics().tokenViolations()).isZero();
  }

  @Test
  void unfencedStore_fencedResourceCheckerFails() {
    RunReport report = run(Experiments.UNFENCED_STORE, 1);

    assertThat(report.unmet()).as("seed " + report.seed()).isEmpty();
    assertThat(report.metrics().fenced()).isEqualTo(Verdict.FALSE);
  }

  @Test
  void storageWipe_durabilityCheckerFails() {
    RunReport report = run(Experiments.STORAGE_WIPE, 1);

    assertThat(report.unmet()).as("seed " + report.seed()).isEmpty();
    assertThat(report.metrics().verdict(DurabilityChecker.NAME)).isEqualTo(Verdict.FALSE);
  }

  @Test
  void replay_fromResultsJson_runsTheRecordedSchedule() {
    RunReport first = run(Experiments.MINORITY, 1);

    RecordedRun recorded = RecordedRun.read(first.dir().resolve("results.json"));
    RunReport again = runner.run(recorded.experiment(), recorded.seed(), recorded.schedule());

    assertThat(again.schedule()).isEqualTo(first.schedule());
    assertThat(again.seed()).isEqualTo(first.seed());
    assertThat(again.unmet()).as("replay of seed " + first.seed()).isEmpty();
  }

  @Test
  void majorityDown_clearFailuresThenRecovery() throws Exception {
    RunReport report = run(Experiments.MAJORITY_DOWN, 1);

    assertThat(report.unmet()).as("seed " + report.seed()).isEmpty();
    assertThat(Files.readString(report.dir().resolve("results.json")))
        .contains("\"verdict\": \"PASS\"");
  }
}
