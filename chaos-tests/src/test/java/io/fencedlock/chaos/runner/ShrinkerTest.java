package io.fencedlock.chaos.runner;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencedlock.chaos.generator.FaultMix;
import io.fencedlock.chaos.generator.ScheduleGenerator;
import io.fencedlock.chaos.generator.Topology;
import io.fencedlock.chaos.nemesis.FaultSchedule;
import io.fencedlock.chaos.nemesis.ScheduledFault;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

final class ShrinkerTest {
  private static final Topology TOPO = new Topology(5, 5, 1000, 2000);

  @ParameterizedTest
  @EnumSource(FaultMix.class)
  void shrink_failureCausedByOneFault_leavesOnlyThatFault(FaultMix mix) {
    FaultSchedule schedule = ScheduleGenerator.generate(mix, TOPO, 42, 4);
    ScheduledFault culprit = schedule.faults().get(schedule.faults().size() / 2);

    Shrinker.Result result = Shrinker.shrink(schedule, s -> s.faults().contains(culprit), 100);

    assertThat(result.schedule().faults()).containsExactly(culprit);
    assertThat(result.runs()).isLessThanOrEqualTo(schedule.faults().size() * 2);
  }

  @ParameterizedTest
  @EnumSource(FaultMix.class)
  void shrink_failureNeedsTwoFaults_keepsBoth(FaultMix mix) {
    FaultSchedule schedule = ScheduleGenerator.generate(mix, TOPO, 7, 4);
    List<ScheduledFault> faults = schedule.faults();
    ScheduledFault first = faults.get(0);
    ScheduledFault last = faults.get(faults.size() - 1);

    Shrinker.Result result =
        Shrinker.shrink(
            schedule, s -> s.faults().contains(first) && s.faults().contains(last), 100);

    assertThat(result.schedule().faults())
        .containsExactlyElementsOf(first == last ? List.of(first) : List.of(first, last));
  }

  @ParameterizedTest
  @EnumSource(FaultMix.class)
  void shrink_budgetSpent_stopsWithAFailingSchedule(FaultMix mix) {
    FaultSchedule schedule = ScheduleGenerator.generate(mix, TOPO, 3, 4);

    Shrinker.Result result = Shrinker.shrink(schedule, s -> true, 1);

    assertThat(result.runs()).isEqualTo(schedule.faults().size() > 1 ? 1 : 0);
    assertThat(schedule.faults()).containsAll(result.schedule().faults());
  }
}
