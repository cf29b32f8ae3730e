package io.fencedlock.chaos.generator;

import static io.fencedlock.chaos.generator.ScheduleGenerator.add;
import static io.fencedlock.chaos.generator.ScheduleGenerator.between;
import static io.fencedlock.chaos.generator.ScheduleGenerator.randomNodes;

import io.fencedlock.chaos.nemesis.Fault;
import io.fencedlock.chaos.nemesis.Grudges;
import io.fencedlock.chaos.nemesis.ScheduledFault;
import io.fencedlock.testkit.Persistence;
import java.util.List;
import java.util.SortedSet;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.stream.IntStream;

/**
 * Schedules of clock faults and of the amnesia spectrum: strobing node clocks, power losses of
 * {@code everysec} nodes, and client clocks stepped back before single-node wipes. Pure;
 * thread-safe.
 */
final class ClockSchedules {
  /** How far back the clients' clocks step: far more than any deployment's age in a run. */
  static final long CLIENT_STEP_BACK_MILLIS = 24L * 3600 * 1000;

  private ClockSchedules() {}

  /** Kleppmann's split while the shared node's clock flips a TTL ahead and back. */
  static long strobe(List<ScheduledFault> faults, long t, SplittableRandom rnd, Topology topo) {
    long episode = between(rnd, 2500, 4000);
    add(
        faults,
        t,
        episode,
        new Fault.Partition(
            "kleppmann-split",
            Grudges.kleppmannSplit(topo.clients(), topo.nodes()),
            Fault.CutMode.REFUSE),
        topo);
    SortedSet<Integer> nodes = new TreeSet<>(List.of(Grudges.sharedNode(topo.nodes())));
    add(
        faults,
        t + 200,
        episode - 400,
        new Fault.ClockStrobe(nodes, topo.ttlMillis(), between(rnd, 100, 300)),
        topo);
    return t + episode;
  }

  /** A minority of nodes loses power (their last second of AOF); sometimes twice in a row. */
  static long powerLoss(List<ScheduledFault> faults, long t, SplittableRandom rnd, Topology topo) {
    SortedSet<Integer> nodes = randomNodes(rnd, topo.nodes(), 1 + rnd.nextInt(topo.minority()));
    add(faults, t, 0, new Fault.PowerLoss(nodes), topo);
    long end = t + between(rnd, 600, 1200);
    if (rnd.nextBoolean()) {
      SortedSet<Integer> again = randomNodes(rnd, topo.nodes(), 1);
      add(faults, t + between(rnd, 200, 500), 0, new Fault.PowerLoss(again), topo);
    }
    return end;
  }

  /**
   * The first episode steps every client's clock back a day; each episode then wipes one node and
   * waits until a client can have re-admitted it (maximum TTL and a margin), with a partition of
   * another node meanwhile so that quorums still need the re-admitted one sometimes.
   */
  static long readmission(
      List<ScheduledFault> faults, long t, SplittableRandom rnd, Topology topo, int episode) {
    if (episode == 0) {
      SortedSet<Integer> all = new TreeSet<>();
      IntStream.range(0, topo.clients()).forEach(all::add);
      add(faults, t, 0, new Fault.ClientClockStep(all, -CLIENT_STEP_BACK_MILLIS), topo);
      t += 200;
    }
    SortedSet<Integer> wiped = randomNodes(rnd, topo.nodes(), 1);
    add(faults, t, 0, new Fault.KillNodes(wiped, Persistence.NONE, Fault.Rejoin.IMMEDIATE), topo);
    return t + topo.maxLeaseTtlMillis() * 102 / 100 + 1200;
  }
}
