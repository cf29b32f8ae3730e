package io.fencedlock.chaos.generator;

import io.fencedlock.chaos.nemesis.Fault;
import io.fencedlock.testkit.Persistence;
import java.util.SortedSet;
import java.util.SplittableRandom;

/**
 * Draws one fault that leaves every client a quorum of healthy nodes, from {@link
 * MinorityFaultFamily}'s table: a minority of nodes, a family, then the family's choices, all from
 * one seeded random source. Pure; thread-safe. Minimum lengths live here too: a node restarted
 * empty "after the maximum TTL" must stay down that long, which the schedule enforces.
 */
final class MinorityFaults {
  private static final MinorityFaultFamily[] FAMILIES = MinorityFaultFamily.values();

  private MinorityFaults() {}

  static Fault draw(SplittableRandom rnd, Topology topo) {
    SortedSet<Integer> some = ScheduleGenerator.randomNodes(rnd, topo.nodes(), 1 + rnd.nextInt(topo.minority()));
    MinorityFaultFamily family = FAMILIES[rnd.nextInt(FAMILIES.length)];
    int[] choices = new int[family.choices().size()];
    for (int i = 0; i < choices.length; i++) {
      choices[i] = family.choices().get(i).draw(rnd, topo);
    }
    return family.build(topo, some, choices);
  }

  /** The shortest length a fault may have; a restart without data "after the TTL" waits at least the maximum TTL. */
  static long minimumMillis(Fault fault, Topology topo) {
    return fault instanceof Fault.KillNodes k && k.rejoin() == Fault.Rejoin.AT_HEAL && k.restartWith() == Persistence.NONE
        ? topo.maxLeaseTtlMillis() + 200 : 0;
  }
}
