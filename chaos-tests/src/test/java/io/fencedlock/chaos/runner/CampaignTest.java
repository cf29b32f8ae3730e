package io.fencedlock.chaos.runner;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencedlock.chaos.checker.CompositeResult;
import io.fencedlock.chaos.checker.LivenessChecker;
import io.fencedlock.chaos.checker.Verdict;
import io.fencedlock.chaos.nemesis.Fault;
import io.fencedlock.chaos.nemesis.FaultSchedule;
import io.fencedlock.chaos.nemesis.ScheduledFault;
import io.fencedlock.testkit.Backend;
import io.fencedlock.testkit.Persistence;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

final class CampaignTest {

  @Test
  void shares_thousandOverCatalogue_addUpAndFreshClustersGetLess() {
    Map<Experiment, Integer> shares = Campaign.shares(Experiments.all(), 1000);

    assertThat(shares.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(1000);
    assertThat(shares.keySet()).containsExactlyElementsOf(Experiments.all());
    int fresh = shares.get(Experiments.AMNESIA_SAFE);
    int shared = shares.get(Experiments.MINORITY);
    assertThat(fresh).isPositive().isLessThan(shared);
  }

  private static RunReport report(FaultSchedule schedule, Verdict liveness) {
    return new RunReport(
        Experiments.MINORITY,
        1,
        Backend.PROCESS,
        schedule,
        new RunMetrics(Map.of(), Map.of(LivenessChecker.NAME, liveness)),
        new CompositeResult(Verdict.TRUE, List.of()),
        List.of(),
        1,
        Path.of("x"),
        new RunEnvironment("6.2.11", "r", "s", "c", "none"));
  }

  private static FaultSchedule kill(Persistence restartWith) {
    return new FaultSchedule(
        List.of(
            new ScheduledFault(
                0,
                800,
                500,
                new Fault.KillNodes(
                    new TreeSet<>(Set.of(1, 2)), restartWith, Fault.Rejoin.IMMEDIATE))));
  }

  @Test
  void leavesClusterChanged_wipeOrNoRecovery_true() {
    assertThat(
            Campaign.leavesClusterChanged(
                kill(Persistence.NONE), report(kill(Persistence.NONE), Verdict.TRUE)))
        .isTrue();
    assertThat(
            Campaign.leavesClusterChanged(
                kill(Persistence.AOF_ALWAYS), report(kill(Persistence.AOF_ALWAYS), Verdict.FALSE)))
        .isTrue();
    assertThat(
            Campaign.leavesClusterChanged(
                kill(Persistence.AOF_ALWAYS), report(kill(Persistence.AOF_ALWAYS), Verdict.TRUE)))
        .isFalse();
  }

  @Test
  void shares_fewerThanExperiments_oneEach() {
    Map<Experiment, Integer> shares = Campaign.shares(Experiments.all(), 3);

    assertThat(shares.values()).allMatch(n -> n == 1);
  }
}
