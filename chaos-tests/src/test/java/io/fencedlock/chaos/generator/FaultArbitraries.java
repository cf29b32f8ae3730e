package io.fencedlock.chaos.generator;

import io.fencedlock.chaos.nemesis.Fault;
import io.fencedlock.chaos.nemesis.FaultSchedule;
import io.fencedlock.chaos.nemesis.Grudges;
import io.fencedlock.chaos.nemesis.ScheduledFault;
import io.fencedlock.testkit.Persistence;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * jqwik arbitraries for the fault values, so that a failing schedule shrinks: towards fewer
 * faults, fewer nodes, shorter durations and smaller delays. Pure; thread-safe.
 */
final class FaultArbitraries {
  private FaultArbitraries() {}

  /** A set of at most a minority of nodes, at least one. */
  static Arbitrary<SortedSet<Integer>> minorityNodes(Topology topo) {
    return Arbitraries.integers().between(0, topo.nodes() - 1).set().ofMinSize(1).ofMaxSize(topo.minority())
        .map(TreeSet::new);
  }

  /** Any fault that leaves every client a quorum of healthy, reachable nodes. */
  static Arbitrary<Fault> minorityFault(Topology topo) {
    int c = topo.clients();
    int n = topo.nodes();
    Arbitrary<SortedSet<Integer>> nodes = minorityNodes(topo);
    return Arbitraries.oneOf(List.of(
        Arbitraries.integers().between(0, n - 1).map(i -> new Fault.Partition("majorities-ring", Grudges.majoritiesRing(c, n, i), Fault.CutMode.REFUSE)),
        Arbitraries.just(new Fault.Partition("kleppmann-split", Grudges.kleppmannSplit(c, n), Fault.CutMode.REFUSE)),
        Combinators.combine(Arbitraries.integers().between(0, n - 1), Arbitraries.of(Fault.CutMode.class))
            .as((i, mode) -> new Fault.Partition("isolate-n" + i, Grudges.isolateNode(c, n, i), mode)),
        Combinators.combine(nodes, Arbitraries.integers().between(1, 60), Arbitraries.integers().between(0, 30))
            .as((s, ms, jitter) -> new Fault.Latency(Grudges.allLose(c, s), ms, jitter)),
        nodes.map(s -> new Fault.ResetPeer(Grudges.allLose(c, s))),
        nodes.map(Fault.PauseNodes::new),
        Combinators.combine(nodes, Arbitraries.of(Persistence.AOF_ALWAYS, Persistence.NONE), Arbitraries.of(Fault.Rejoin.class))
            .as(Fault.KillNodes::new)));
  }

  /** One to {@code maxFaults} minority faults, one at a time, with gaps. */
  static Arbitrary<FaultSchedule> minoritySchedule(Topology topo, int maxFaults) {
    Arbitrary<long[]> timing = Combinators.combine(Arbitraries.longs().between(100, 600), Arbitraries.longs().between(300, 1500))
        .as((gap, length) -> new long[] {gap, length});
    Arbitrary<Object[]> step = Combinators.combine(timing, minorityFault(topo)).as((t, f) -> new Object[] {t, f});
    return step.list().ofMinSize(1).ofMaxSize(maxFaults).map(steps -> sequential(steps, topo));
  }

  private static FaultSchedule sequential(List<Object[]> steps, Topology topo) {
    List<ScheduledFault> faults = new ArrayList<>();
    long t = ScheduleGenerator.WARMUP_MILLIS;
    for (Object[] s : steps) {
      long[] timing = (long[]) s[0];
      Fault fault = (Fault) s[1];
      long start = t + timing[0];
      long length = Math.max(timing[1], MinorityFaults.minimumMillis(fault, topo));
      faults.add(new ScheduledFault(faults.size(), start, length, fault));
      t = start + length;
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
