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
    SortedSet<Integer> some =
        ScheduleGenerator.randomNodes(rnd, topo.nodes(), 1 + rnd.nextInt(topo.minority()));
    MinorityFaultFamily family = FAMILIES[rnd.nextInt(FAMILIES.length)];
    int[] choices = new int[family.choices().size()];
    for (int i = 0; i < choices.length; i++) {
      choices[i] = family.choices().get(i).draw(rnd, topo);
    }
    return family.build(topo, some, choices);
  }

  /**
   * When a fault's effect ends, for a fault from {@code start} to {@code end}: a node restarted
   * empty stays out of quorums until a client re-admits it, about the maximum TTL after it came
   * back (plus drift and a margin for the client's first look), so the next minority fault must
   * wait for that too. Otherwise two minority wipes in a row can leave a majority without markers,
   * which is an outage by design (docs/analysis.md, section 5), not a minority fault.
   */
  static long effectEndMillis(Fault fault, long start, long end, Topology topo) {
    if (fault instanceof Fault.KillNodes k && k.restartWith() == Persistence.NONE) {
      long backAt = k.rejoin() == Fault.Rejoin.IMMEDIATE ? start : end;
      return Math.max(
          end, backAt + topo.maxLeaseTtlMillis() * 102 / 100 + READMISSION_MARGIN_MILLIS);
    }
    return end;
  }

  /** Time for a client's first look at a node restarted empty, and for its re-admission to land. */
  private static final long READMISSION_MARGIN_MILLIS = 500;

  /**
   * The shortest length a fault may have; a restart without data "after the TTL" waits at least the
   * maximum TTL.
   */
  static long minimumMillis(Fault fault, Topology topo) {
    return fault instanceof Fault.KillNodes k
            && k.rejoin() == Fault.Rejoin.AT_HEAL
            && k.restartWith() == Persistence.NONE
        ? topo.maxLeaseTtlMillis() + 200
        : 0;
  }
}
