package io.fencedlock.chaos.generator;

import io.fencedlock.chaos.nemesis.Fault;
import io.fencedlock.chaos.nemesis.FaultSchedule;
import io.fencedlock.chaos.nemesis.Grudges;
import io.fencedlock.chaos.nemesis.ScheduledFault;
import io.fencedlock.testkit.Persistence;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedSet;
import java.util.SplittableRandom;
import java.util.TreeSet;

/**
 * Deterministic fault schedules: the same mix, topology, seed and count always give the same
 * schedule, so any run can be replayed from its seed. Faults of the MINORITY mix run one at a time
 * with gaps; the other mixes follow the shape their experiment needs, with random nodes, clients,
 * times and lengths. Stateless and thread-safe. (The jqwik properties draw MINORITY schedules from
 * the same table, {@link MinorityFaultFamily}, and the same lengths and gaps, with {@code
 * Arbitrary}s, so that failing schedules shrink.)
 */
public final class ScheduleGenerator {
  /** Time before the first fault, so that the workload is running. */
  public static final long WARMUP_MILLIS = 800;

  /**
   * Shortest and longest drawn length of a MINORITY fault (a fault's own minimum may stretch it).
   */
  static final long MINORITY_MIN_MILLIS = 700;

  static final long MINORITY_MAX_MILLIS = 1500;

  /** Shortest and longest quiet gap after each fault or episode. */
  static final long GAP_MIN_MILLIS = 300;

  static final long GAP_MAX_MILLIS = 800;
  private static final long AMNESIA_LEAD_MILLIS = 1500;

  private ScheduleGenerator() {}

  /** Generates {@code count} faults (or fault episodes) of {@code mix}. */
  public static FaultSchedule generate(FaultMix mix, Topology topo, long seed, int count) {
    SplittableRandom rnd = new SplittableRandom(seed);
    List<ScheduledFault> faults = new ArrayList<>();
    long t = WARMUP_MILLIS;
    // Majority-down episodes cycle through kill, pause and partition from a random start, so a
    // run of three covers all three.
    int firstKind = mix == FaultMix.MAJORITY_DOWN ? rnd.nextInt(3) : 0;
    for (int i = 0; i < count; i++) {
      t =
          switch (mix) {
                case MINORITY -> minority(faults, t, rnd, topo);
                case CLIENT_PAUSE -> ProcessSchedules.clientPause(faults, t, rnd, topo, i);
                case CLIENT_PROCESS -> ProcessSchedules.clientProcess(faults, t, rnd, topo);
                case CLOCK_STEP -> clockSteps(faults, t, rnd, topo);
                case CLOCK_STROBE -> ClockSchedules.strobe(faults, t, rnd, topo);
                case AMNESIA -> amnesia(faults, t, rnd, topo);
                case MAJORITY_DOWN -> majorityDown(faults, t, rnd, topo, (firstKind + i) % 3);
                case STORAGE -> ProcessSchedules.storage(faults, t, rnd, topo, i);
                case STORAGE_WIPE -> ProcessSchedules.storageWipe(faults, t, rnd, topo);
                case POWER_LOSS -> ClockSchedules.powerLoss(faults, t, rnd, topo);
                case READMISSION -> ClockSchedules.readmission(faults, t, rnd, topo, i);
                case NETWORK -> NetworkSchedules.network(faults, t, rnd, topo);
                case COMBINED -> CombinedSchedules.combined(faults, t, rnd, topo);
              }
              + between(rnd, GAP_MIN_MILLIS, GAP_MAX_MILLIS);
    }
    return new FaultSchedule(faults);
  }

  /**
   * Adds a minority fault at {@code start} and returns when its effect ends (see {@link
   * MinorityFaults#effectEndMillis}).
   */
  private static long minority(
      List<ScheduledFault> faults, long start, SplittableRandom rnd, Topology topo) {
    long length = between(rnd, MINORITY_MIN_MILLIS, MINORITY_MAX_MILLIS);
    Fault fault = MinorityFaults.draw(rnd, topo);
    long end = add(faults, start, length, fault, topo);
    return MinorityFaults.effectEndMillis(fault, start, end, topo);
  }

  /** Adds a fault at {@code start} and returns its end, stretched to the fault's minimum length. */
  static long add(
      List<ScheduledFault> faults, long start, long duration, Fault fault, Topology topo) {
    long length = Math.max(duration, MinorityFaults.minimumMillis(fault, topo));
    faults.add(new ScheduledFault(faults.size(), start, length, fault));
    return start + length;
  }

  private static long clockSteps(
      List<ScheduledFault> faults, long t, SplittableRandom rnd, Topology topo) {
    long episode = between(rnd, 3000, 4500);
    add(
        faults,
        t,
        episode,
        new Fault.Partition(
            "kleppmann-split",
            Grudges.kleppmannSplit(topo.clients(), topo.nodes()),
            Fault.CutMode.REFUSE),
        topo);
    int shared = Grudges.sharedNode(topo.nodes());
    java.util.Map<Integer, Long> ahead = new java.util.TreeMap<>();
    for (long s = t + between(rnd, 300, 600); s < t + episode - 500; s += between(rnd, 350, 700)) {
      SortedSet<Integer> nodes = new TreeSet<>(List.of(shared));
      if (topo.minority() > 1 && rnd.nextBoolean()) {
        nodes.add(rnd.nextInt(topo.nodes()));
      }
      add(faults, s, 0, new Fault.ClockStep(nodes, topo.ttlMillis()), topo);
      nodes.forEach(n -> ahead.merge(n, topo.ttlMillis(), Long::sum));
    }
    // Then each stepped clock steps back to real time: keys set while it was ahead live longer.
    for (java.util.Map.Entry<Integer, Long> e : ahead.entrySet()) {
      add(
          faults,
          t + episode - 300,
          0,
          new Fault.ClockStep(new TreeSet<>(List.of(e.getKey())), -e.getValue()),
          topo);
    }
    return t + episode;
  }

  private static long amnesia(
      List<ScheduledFault> faults, long t, SplittableRandom rnd, Topology topo) {
    SortedSet<Integer> wiped = randomNodes(rnd, topo.nodes(), topo.majority());
    SortedSet<Integer> others = new TreeSet<>();
    for (int n = 0; n < topo.nodes(); n++) {
      if (!wiped.contains(n)) {
        others.add(n);
      }
    }
    // A lead of 1.5 s first, so that the history holds tokens from before the wipe to compare with.
    long start = t + AMNESIA_LEAD_MILLIS;
    long episode = between(rnd, 2000, 3000);
    add(
        faults,
        start,
        episode,
        new Fault.Partition(
            "remembering-nodes-away",
            Grudges.allLose(topo.clients(), others),
            Fault.CutMode.REFUSE),
        topo);
    add(
        faults,
        start + 200,
        0,
        new Fault.KillNodes(wiped, Persistence.NONE, Fault.Rejoin.IMMEDIATE),
        topo);
    return start + episode;
  }

  private static long majorityDown(
      List<ScheduledFault> faults, long t, SplittableRandom rnd, Topology topo, int kind) {
    SortedSet<Integer> down = randomNodes(rnd, topo.nodes(), topo.majority());
    long length = between(rnd, 1500, 2500);
    Fault fault =
        switch (kind) {
          case 0 -> new Fault.KillNodes(down, Persistence.AOF_ALWAYS, Fault.Rejoin.AT_HEAL);
          case 1 -> new Fault.PauseNodes(down);
          default ->
              new Fault.Partition(
                  "majority-cut-off", Grudges.allLose(topo.clients(), down), Fault.CutMode.REFUSE);
        };
    return add(faults, t, length, fault, topo);
  }

  static SortedSet<Integer> randomNodes(SplittableRandom rnd, int nodes, int count) {
    SortedSet<Integer> picked = new TreeSet<>();
    while (picked.size() < count) {
      picked.add(rnd.nextInt(nodes));
    }
    return picked;
  }

  static long between(SplittableRandom rnd, long min, long max) {
    return max <= min ? min : min + rnd.nextLong(max - min + 1);
  }
}
