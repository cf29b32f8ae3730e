package io.fencedlock.chaos.generator;

import io.fencedlock.chaos.nemesis.Fault;
import io.fencedlock.chaos.nemesis.Grudges;
import io.fencedlock.testkit.Persistence;
import java.util.SortedSet;
import java.util.SplittableRandom;

/**
 * Draws one fault that leaves every client a quorum of healthy nodes. Pure; thread-safe.
 * Minimum lengths live here too: a node restarted empty "after the maximum TTL" must stay down
 * that long, which the schedule enforces.
 */
final class MinorityFaults {
  private MinorityFaults() {}

  static Fault draw(SplittableRandom rnd, Topology topo) {
    int clients = topo.clients();
    int nodes = topo.nodes();
    SortedSet<Integer> some = ScheduleGenerator.randomNodes(rnd, nodes, 1 + rnd.nextInt(topo.minority()));
    return switch (rnd.nextInt(11)) {
      case 0 -> new Fault.Partition("kleppmann-split", Grudges.kleppmannSplit(clients, nodes), Fault.CutMode.REFUSE);
      case 1 -> new Fault.Partition("isolate-n" + some.first(), Grudges.isolateNode(clients, nodes, some.first()),
          rnd.nextBoolean() ? Fault.CutMode.REFUSE : Fault.CutMode.BLACKHOLE);
      case 2 -> new Fault.Partition("majorities-ring", Grudges.majoritiesRing(clients, nodes, rnd.nextInt(nodes)), Fault.CutMode.REFUSE);
      case 3 -> new Fault.Partition("client-subset", Grudges.clientLoses(clients, rnd.nextInt(clients), some), Fault.CutMode.REFUSE);
      case 4 -> new Fault.Latency(Grudges.allLose(clients, some), (int) ScheduleGenerator.between(rnd, 10, 60), (int) ScheduleGenerator.between(rnd, 0, 30));
      case 5 -> new Fault.Partition("blackhole", Grudges.allLose(clients, some), Fault.CutMode.BLACKHOLE);
      case 6 -> new Fault.ResetPeer(Grudges.allLose(clients, some));
      case 7 -> new Fault.PauseNodes(some);
      case 8 -> new Fault.KillNodes(some, Persistence.AOF_ALWAYS, rnd.nextBoolean() ? Fault.Rejoin.IMMEDIATE : Fault.Rejoin.AT_HEAL);
      case 9 -> new Fault.KillNodes(some, Persistence.NONE, Fault.Rejoin.AT_HEAL);
      default -> new Fault.KillNodes(some, Persistence.NONE, Fault.Rejoin.IMMEDIATE);
    };
  }

  /** The shortest length a fault may have; a restart without data "after the TTL" waits at least the maximum TTL. */
  static long minimumMillis(Fault fault, Topology topo) {
    return fault instanceof Fault.KillNodes k && k.rejoin() == Fault.Rejoin.AT_HEAL && k.restartWith() == Persistence.NONE
        ? topo.maxLeaseTtlMillis() + 200 : 0;
  }
}
