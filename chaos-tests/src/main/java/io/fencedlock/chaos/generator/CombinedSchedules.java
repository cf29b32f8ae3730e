package io.fencedlock.chaos.generator;

import static io.fencedlock.chaos.generator.ScheduleGenerator.add;
import static io.fencedlock.chaos.generator.ScheduleGenerator.between;
import static io.fencedlock.chaos.generator.ScheduleGenerator.randomNodes;

import io.fencedlock.chaos.nemesis.Fault;
import io.fencedlock.chaos.nemesis.ScheduledFault;
import io.fencedlock.testkit.Persistence;
import java.util.List;
import java.util.SortedSet;
import java.util.SplittableRandom;

/**
 * Jepsen's combined packages: one episode runs four timelines at once, each a package of its own
 * (network toxics and partitions, node pauses and kills keeping their data, client pauses and
 * kills, storage faults), so faults of different packages overlap, while faults of one package
 * follow each other (a node is never paused by one fault while another kills it). Faults that lose
 * data are left out: with overlaps they could leave a majority without memory, which is an outage
 * by design, not a test of safety. Pure; thread-safe.
 */
final class CombinedSchedules {
  private CombinedSchedules() {}

  static long combined(List<ScheduledFault> faults, long t, SplittableRandom rnd, Topology topo) {
    long length = between(rnd, 2500, 4000);
    long end = t + length;
    long net = t + between(rnd, 0, 400);
    while (net < end - 500) {
      Fault f =
          rnd.nextBoolean() ? NetworkSchedules.toxic(rnd, topo) : MinorityFaults.draw(rnd, topo);
      if (f instanceof Fault.KillNodes || f instanceof Fault.PauseNodes) {
        f = NetworkSchedules.toxic(rnd, topo); // node processes are the next package's
      }
      net = add(faults, net, between(rnd, 500, 1200), f, topo) + between(rnd, 100, 400);
    }
    long node = t + between(rnd, 0, 800);
    while (node < end - 500) {
      SortedSet<Integer> some = randomNodes(rnd, topo.nodes(), 1 + rnd.nextInt(topo.minority()));
      Fault f =
          rnd.nextBoolean()
              ? new Fault.PauseNodes(some)
              : new Fault.KillNodes(
                  some,
                  Persistence.AOF_ALWAYS,
                  rnd.nextBoolean() ? Fault.Rejoin.IMMEDIATE : Fault.Rejoin.AT_HEAL);
      node = add(faults, node, between(rnd, 400, 1000), f, topo) + between(rnd, 200, 600);
    }
    long client = t + between(rnd, 0, 800);
    while (client < end - 500) {
      client = ProcessSchedules.clientProcess(faults, client, rnd, topo) + between(rnd, 0, 300);
    }
    long storage = t + between(rnd, 200, 1200);
    if (storage < end - 500) {
      ProcessSchedules.storage(faults, storage, rnd, topo, 1);
    }
    return Math.max(end, faults.stream().mapToLong(ScheduledFault::endMillis).max().orElse(end));
  }
}
