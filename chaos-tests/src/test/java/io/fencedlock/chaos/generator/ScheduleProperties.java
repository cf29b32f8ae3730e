package io.fencedlock.chaos.generator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencedlock.chaos.client.Point;
import io.fencedlock.chaos.nemesis.Fault;
import io.fencedlock.chaos.nemesis.FaultSchedule;
import io.fencedlock.chaos.nemesis.ScheduledFault;
import io.fencedlock.testkit.Persistence;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * Pure properties of generated schedules: deterministic from their seed, and within their mix's
 * limits.
 */
final class ScheduleProperties {
  private static final Topology TOPO = new Topology(5, 3, 1000, 2000);

  @Property(tries = 200)
  void generate_sameSeed_sameSchedule(
      @ForAll long seed, @ForAll FaultMix mix, @ForAll @IntRange(min = 1, max = 8) int count) {
    FaultSchedule a = ScheduleGenerator.generate(mix, TOPO, seed, count);
    FaultSchedule b = ScheduleGenerator.generate(mix, TOPO, seed, count);

    assertThat(a).isEqualTo(b);
    assertThat(a.faults()).isNotEmpty();
  }

  @Property(tries = 300)
  void generate_minority_oneFaultAtATimeAndAQuorumLeft(
      @ForAll long seed, @ForAll @IntRange(min = 1, max = 10) int count) {
    FaultSchedule s = ScheduleGenerator.generate(FaultMix.MINORITY, TOPO, seed, count);

    assertWithinMinority(s);
  }

  @Property(tries = 300)
  void arbitrarySchedule_minority_oneFaultAtATimeAndAQuorumLeft(
      @ForAll("minoritySchedules") FaultSchedule s) {
    assertWithinMinority(s);
  }

  @Property(tries = 100)
  void generate_majorityDown_takesAMajority(@ForAll long seed) {
    FaultSchedule s = ScheduleGenerator.generate(FaultMix.MAJORITY_DOWN, TOPO, seed, 1);

    assertThat(FaultArbitraries.unreachable(s.faults().get(0).fault(), 0)).hasSize(TOPO.majority());
  }

  @Property(tries = 200)
  void generate_clientFaults_eachTargetedOneWidenedForItsEpisode(
      @ForAll long seed,
      @ForAll("clientMixes") FaultMix mix,
      @ForAll @IntRange(min = 1, max = 6) int count) {
    FaultSchedule s = ScheduleGenerator.generate(mix, TOPO, seed, count);

    List<ScheduledFault> latencies =
        s.faults().stream().filter(f -> f.fault() instanceof Fault.Latency).toList();
    long targeted = 0;
    for (ScheduledFault f : s.faults()) {
      if (!(f.fault() instanceof Fault.ClientFault c)) {
        continue;
      }
      if (c.point() == Point.ANY) {
        assertThat(WindowWidening.of(c, TOPO)).isEmpty();
        continue;
      }
      targeted++;
      Fault.Latency widening = WindowWidening.of(c, TOPO).orElseThrow();
      assertThat(latencies)
          .as(f + " has its widening for the same episode")
          .anySatisfy(
              l -> {
                assertThat(l.fault()).isEqualTo(widening);
                assertThat(l.startMillis()).isEqualTo(f.startMillis());
                assertThat(l.durationMillis()).isEqualTo(f.durationMillis());
              });
      assertThat(widening.millis()).isBetween(10, (int) TOPO.nodeTimeoutMillis() / 3);
      boolean nodes = c.point() != Point.AFTER_FENCE;
      boolean storage = c.point() == Point.AFTER_FENCE || c.point() == Point.IN_RENEWAL;
      assertThat(widening.links())
          .allMatch(l -> l.client() == c.client())
          .hasSize((nodes ? TOPO.nodes() : 0) + (storage ? 1 : 0));
      assertThat(widening.links().stream().filter(l -> l.isStorage()).count())
          .as("storage links of " + f)
          .isEqualTo(storage ? 1 : 0);
    }
    assertThat(latencies).as("no latency but the widenings").hasSize((int) targeted);
  }

  @Provide
  Arbitrary<FaultMix> clientMixes() {
    return Arbitraries.of(FaultMix.CLIENT_PROCESS, FaultMix.CLIENT_PAUSE);
  }

  @Example
  void generate_pinnedSeed_keepsItsSchedule() {
    // Replays of recorded runs (docs/analysis.md, section 9) depend on a seed's schedule never
    // changing.
    FaultSchedule s = ScheduleGenerator.generate(FaultMix.MINORITY, TOPO, 20261121L, 4);

    assertThat(s.faults())
        .extracting(ScheduledFault::toString)
        .containsExactly(
            "#0 @800ms +814ms blackhole isolate-n3 [c0->n3, c1->n3, c2->n3]",
            "#1 @2247ms +709ms partition majorities-ring [c0->n0, c0->n4, c1->n0, c1->n1, c2->n1,"
                + " c2->n2]",
            "#2 @3362ms +1398ms partition isolate-n3 [c0->n3, c1->n3, c2->n3]",
            "#3 @5510ms +726ms partition kleppmann-split [c0->n3, c0->n4, c1->n0, c1->n1, c2->n3,"
                + " c2->n4]");
  }

  @Property(tries = 300)
  void family_seededChoices_withinTheArbitrariesBoundsAndAQuorumLeft(
      @ForAll MinorityFaultFamily family, @ForAll long seed) {
    // The seeded generator's draws stay within the bounds the arbitraries draw from (one space),
    // and whatever the choices, the family leaves every client a quorum.
    SplittableRandom rnd = new SplittableRandom(seed);
    int[] choices = family.choices().stream().mapToInt(c -> c.draw(rnd, TOPO)).toArray();
    for (int i = 0; i < choices.length; i++) {
      assertThat(choices[i])
          .isBetween(family.choices().get(i).min(TOPO), family.choices().get(i).max(TOPO));
    }
    Fault fault = family.build(TOPO, new TreeSet<>(Set.of(rnd.nextInt(TOPO.nodes()))), choices);
    for (int c = 0; c < TOPO.clients(); c++) {
      assertThat(FaultArbitraries.unreachable(fault, c)).hasSizeLessThanOrEqualTo(TOPO.minority());
    }
  }

  @Provide
  Arbitrary<FaultSchedule> minoritySchedules() {
    return FaultArbitraries.minoritySchedule(TOPO, 6);
  }

  private static void assertWithinMinority(FaultSchedule s) {
    for (int i = 0; i < s.faults().size(); i++) {
      ScheduledFault f = s.faults().get(i);
      if (i > 0) {
        assertThat(f.startMillis())
            .as("faults do not overlap")
            .isGreaterThanOrEqualTo(s.faults().get(i - 1).endMillis());
      }
      for (int c = 0; c < TOPO.clients(); c++) {
        assertThat(FaultArbitraries.unreachable(f.fault(), c))
            .as(f + " leaves client " + c + " a quorum")
            .hasSizeLessThanOrEqualTo(TOPO.minority());
      }
      if (f.fault() instanceof Fault.KillNodes k
          && k.restartWith() == Persistence.NONE
          && k.rejoin() == Fault.Rejoin.AT_HEAL) {
        assertThat(f.durationMillis())
            .as("rejoins after the maximum TTL")
            .isGreaterThan(TOPO.maxLeaseTtlMillis());
      }
    }
  }
}
