package io.fencedlock.chaos.runner;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencedlock.chaos.checker.DurabilityChecker;
import io.fencedlock.chaos.checker.Verdict;
import io.fencedlock.chaos.fixture.StorageProcess;
import io.fencedlock.chaos.nemesis.Fault;
import io.fencedlock.chaos.nemesis.FaultSchedule;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * {@link Experiments#STORAGE_POSTGRES} for real: the storage service on a private PostgreSQL
 * server, killed with SIGKILL and restarted during the workload; safety holds and the store's
 * highest token survives. The seed is random and logged ({@code -Dfencedlock.chaos.seed=N}
 * replays); the first schedule from it on that kills the service is run, so that every run crashes
 * it at least once.
 */
final class StoragePostgresIT {
  private static final int FAULTS = 2;
  private static final int SEEDS_TO_TRY = 100;

  private final ExperimentRunner runner =
      new ExperimentRunner(Path.of("target", "chaos"), System.out);

  @Test
  void storageFaultsPostgres_serviceKilledAndRestarted_safetyHoldsAndHighestTokenSurvives() {
    Experiment experiment = Experiments.STORAGE_POSTGRES.withFaults(FAULTS);
    long seed = firstSeedThatKillsTheService(experiment, Seeds.next(experiment.name()));

    RunReport report = runner.run(experiment, seed, ExperimentRunner.schedule(experiment, seed));

    assertThat(experiment.storage()).isEqualTo(StorageProcess.Mode.POSTGRES);
    assertThat(report.unmet()).as("seed " + seed).isEmpty();
    assertThat(report.metrics().get(RunMetrics.STORAGE_RESTARTS))
        .as("restarts of the storage service observed, seed " + seed)
        .isPositive();
    assertThat(report.metrics().verdict(DurabilityChecker.NAME))
        .as("highest token after every restart, seed " + seed)
        .isEqualTo(Verdict.TRUE);
  }

  private static long firstSeedThatKillsTheService(Experiment experiment, long from) {
    for (long seed = from; seed < from + SEEDS_TO_TRY; seed++) {
      if (killsTheService(ExperimentRunner.schedule(experiment, seed))) {
        return seed;
      }
    }
    throw new AssertionError("no storage kill in " + SEEDS_TO_TRY + " schedules from " + from);
  }

  private static boolean killsTheService(FaultSchedule schedule) {
    return schedule.faults().stream()
        .anyMatch(
            f ->
                f.fault() instanceof Fault.StorageFault s
                    && s.action() == Fault.StorageAction.KILL);
  }
}
