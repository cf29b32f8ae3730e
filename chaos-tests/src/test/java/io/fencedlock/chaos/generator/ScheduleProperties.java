package io.fencedlock.chaos.generator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencedlock.chaos.nemesis.Fault;
import io.fencedlock.chaos.nemesis.FaultSchedule;
import io.fencedlock.chaos.nemesis.ScheduledFault;
import io.fencedlock.testkit.Persistence;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/** Pure properties of generated schedules: deterministic from their seed, and within their mix's limits. */
final class ScheduleProperties {
  private static final Topology TOPO = new Topology(5, 3, 1000, 2000);

  @Property(tries = 200)
  void generate_sameSeed_sameSchedule(@ForAll long seed, @ForAll FaultMix mix, @ForAll @IntRange(min = 1, max = 8) int count) {
    FaultSchedule a = ScheduleGenerator.generate(mix, TOPO, seed, count);
    FaultSchedule b = ScheduleGenerator.generate(mix, TOPO, seed, count);

    assertThat(a).isEqualTo(b);
    assertThat(a.faults()).isNotEmpty();
  }

  @Property(tries = 300)
  void generate_minority_oneFaultAtATimeAndAQuorumLeft(@ForAll long seed, @ForAll @IntRange(min = 1, max = 10) int count) {
    FaultSchedule s = ScheduleGenerator.generate(FaultMix.MINORITY, TOPO, seed, count);

    assertWithinMinority(s);
  }

  @Property(tries = 300)
  void arbitrarySchedule_minority_oneFaultAtATimeAndAQuorumLeft(@ForAll("minoritySchedules") FaultSchedule s) {
    assertWithinMinority(s);
  }

  @Property(tries = 100)
  void generate_majorityDown_takesAMajority(@ForAll long seed) {
    FaultSchedule s = ScheduleGenerator.generate(FaultMix.MAJORITY_DOWN, TOPO, seed, 1);

    assertThat(FaultArbitraries.unreachable(s.faults().get(0).fault(), 0)).hasSize(TOPO.majority());
  }

  @Provide
  Arbitrary<FaultSchedule> minoritySchedules() {
    return FaultArbitraries.minoritySchedule(TOPO, 6);
  }

  private static void assertWithinMinority(FaultSchedule s) {
    for (int i = 0; i < s.faults().size(); i++) {
      ScheduledFault f = s.faults().get(i);
      if (i > 0) {
        assertThat(f.startMillis()).as("faults do not overlap").isGreaterThanOrEqualTo(s.faults().get(i - 1).endMillis());
      }
      for (int c = 0; c < TOPO.clients(); c++) {
        assertThat(FaultArbitraries.unreachable(f.fault(), c)).as(f + " leaves client " + c + " a quorum").hasSizeLessThanOrEqualTo(TOPO.minority());
      }
      if (f.fault() instanceof Fault.KillNodes k && k.restartWith() == Persistence.NONE && k.rejoin() == Fault.Rejoin.AT_HEAL) {
        assertThat(f.durationMillis()).as("rejoins after the maximum TTL").isGreaterThan(TOPO.maxLeaseTtlMillis());
      }
    }
  }
}
