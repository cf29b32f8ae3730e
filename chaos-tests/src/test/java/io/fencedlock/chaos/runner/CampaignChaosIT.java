package io.fencedlock.chaos.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The full campaign: every experiment with its default fault count, three schedules each. Long;
 * excluded from the default build (tag {@code chaos}); run with {@code mvn -pl chaos-tests verify
 * -Dfailsafe.excludedGroups=none -Dit.test=CampaignChaosIT} or {@code ./fencedlock chaos
 * --schedules 3}.
 */
@Tag("chaos")
final class CampaignChaosIT {

  @Test
  void everyExperiment_threeSchedules_allExpectationsHold() {
    ExperimentRunner runner = new ExperimentRunner(Path.of("target", "chaos"), System.out);
    long seed = Seeds.next("campaign");
    List<RunReport> reports = new ArrayList<>();
    for (Experiment e : Experiments.all()) {
      for (int i = 0; i < 3; i++) {
        reports.add(runner.run(e, seed + i));
      }
    }
    System.out.print(SummaryTable.text(reports));

    assertThat(reports)
        .allSatisfy(
            r -> assertThat(r.unmet()).as(r.experiment().name() + " seed " + r.seed()).isEmpty());
  }
}
