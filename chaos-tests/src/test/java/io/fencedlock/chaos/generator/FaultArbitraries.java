package io.fencedlock.chaos.generator;

import io.fencedlock.chaos.nemesis.Fault;
import io.fencedlock.chaos.nemesis.FaultSchedule;
import io.fencedlock.chaos.nemesis.ScheduledFault;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * jqwik arbitraries for the fault values, so that a failing schedule shrinks: towards fewer faults,
 * fewer nodes, earlier families of the table, shorter durations and smaller delays. They draw from
 * the seeded generator's fault space, not one of their own. Pure; thread-safe.
 */
final class FaultArbitraries {
  private FaultArbitraries() {}

  /** A set of at most a minority of nodes, at least one. */
  static Arbitrary<SortedSet<Integer>> minorityNodes(Topology topo) {
    return Arbitraries.integers()
        .between(0, topo.nodes() - 1)
        .set()
        .ofMinSize(1)
        .ofMaxSize(topo.minority())
        .map(TreeSet::new);
  }

  /**
   * Any fault that leaves every client a quorum of healthy, reachable nodes: the seeded generator's
   * table ({@link MinorityFaultFamily}), each family's choices within the same bounds.
   */
  static Arbitrary<Fault> minorityFault(Topology topo) {
    Arbitrary<SortedSet<Integer>> nodes = minorityNodes(topo);
    return Arbitraries.of(MinorityFaultFamily.class)
        .flatMap(
            family ->
                Combinators.combine(nodes, choices(family, topo))
                    .as((some, choices) -> family.build(topo, some, choices)));
  }

  /**
   * One to {@code maxFaults} minority faults, one at a time, with the generator's lengths and gaps.
   */
  static Arbitrary<FaultSchedule> minoritySchedule(Topology topo, int maxFaults) {
    Arbitrary<long[]> timing =
        Combinators.combine(
                Arbitraries.longs()
                    .between(
                        ScheduleGenerator.MINORITY_MIN_MILLIS,
                        ScheduleGenerator.MINORITY_MAX_MILLIS),
                Arbitraries.longs()
                    .between(ScheduleGenerator.GAP_MIN_MILLIS, ScheduleGenerator.GAP_MAX_MILLIS))
            .as((length, gap) -> new long[] {length, gap});
    Arbitrary<Object[]> step =
        Combinators.combine(timing, minorityFault(topo)).as((t, f) -> new Object[] {t, f});
    return step.list().ofMinSize(1).ofMaxSize(maxFaults).map(steps -> sequential(steps, topo));
  }

  /** One value per choice of {@code family}, each between its bounds. */
  private static Arbitrary<int[]> choices(MinorityFaultFamily family, Topology topo) {
    List<Arbitrary<Integer>> each =
        family.choices().stream()
            .<Arbitrary<Integer>>map(c -> Arbitraries.integers().between(c.min(topo), c.max(topo)))
            .toList();
    if (each.isEmpty()) {
      return Arbitraries.just(new int[0]);
    }
    return Combinators.combine(each)
        .as(values -> values.stream().mapToInt(Integer::intValue).toArray());
  }

  /**
   * Like the generator: the first fault after the warm-up, each next one a gap after the last ends.
   */
  private static FaultSchedule sequential(List<Object[]> steps, Topology topo) {
    List<ScheduledFault> faults = new ArrayList<>();
    long t = ScheduleGenerator.WARMUP_MILLIS;
    for (Object[] s : steps) {
      long[] timing = (long[]) s[0];
      Fault fault = (Fault) s[1];
      long length = Math.max(timing[0], MinorityFaults.minimumMillis(fault, topo));
      faults.add(new ScheduledFault(faults.size(), t, length, fault));
      t = MinorityFaults.effectEndMillis(fault, t, t + length, topo) + timing[1];
    }
    return new FaultSchedule(faults);
  }

  /** The nodes a fault takes away from client {@code client}, for invariants. */
  static Set<Integer> unreachable(Fault fault, int client) {
    Set<Integer> lost = new TreeSet<>();
    if (fault instanceof Fault.Partition p) {
      p.cut().stream().filter(l -> l.client() == client).forEach(l -> lost.add(l.node()));
    } else if (fault instanceof Fault.PauseNodes p) {
      lost.addAll(p.nodes());
    } else if (fault instanceof Fault.KillNodes k) {
      lost.addAll(k.nodes());
    }
    return lost;
  }
}
