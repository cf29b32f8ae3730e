package io.fencedlock.chaos.generator;

import static io.fencedlock.chaos.generator.ScheduleGenerator.add;
import static io.fencedlock.chaos.generator.ScheduleGenerator.between;

import io.fencedlock.chaos.client.Point;
import io.fencedlock.chaos.nemesis.Fault;
import io.fencedlock.chaos.nemesis.Link;
import io.fencedlock.chaos.nemesis.ScheduledFault;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Schedules of process faults: client processes paused and killed (at once or at targeted points)
 * and the storage service killed, paused, cut off or wiped. The client-fault mixes widen each
 * targeted fault's window with a latency toxic ({@link WindowWidening}). Pure; thread-safe.
 */
final class ProcessSchedules {
  /** The points of the targeted client faults. */
  static final List<Point> TARGETED =
      List.of(Point.BETWEEN_PHASES, Point.AFTER_FENCE, Point.IN_RELEASE, Point.IN_RENEWAL);

  private ProcessSchedules() {}

  /**
   * A holder paused for two to three TTLs, at once or right after its fence or between the phases
   * of its acquire, so that it writes late; armed long enough for a client to get there.
   */
  static long clientPause(
      List<ScheduledFault> faults, long t, SplittableRandom rnd, Topology topo, int episode) {
    long stall = topo.ttlMillis() * 2 + between(rnd, 0, topo.ttlMillis());
    // The first pause always falls after a fence: the window where a stale write is possible, so
    // that the negative controls built on this mix can bite in every schedule, not in most.
    Point point =
        switch (episode == 0 ? 2 : rnd.nextInt(4)) {
          case 0 -> Point.ANY;
          case 1 -> Point.BETWEEN_PHASES;
          default -> Point.AFTER_FENCE;
        };
    Fault.ClientFault f =
        new Fault.ClientFault(rnd.nextInt(topo.clients()), Fault.ClientAction.PAUSE, point, stall);
    return targeted(faults, t, stall + 600, f, topo);
  }

  /** One client paused or killed, at once or at any targeted point. */
  static long clientProcess(
      List<ScheduledFault> faults, long t, SplittableRandom rnd, Topology topo) {
    int client = rnd.nextInt(topo.clients());
    Point point = rnd.nextInt(5) < 2 ? Point.ANY : TARGETED.get(rnd.nextInt(TARGETED.size()));
    if (rnd.nextInt(10) < 3) {
      return targeted(
          faults, t, 1200, new Fault.ClientFault(client, Fault.ClientAction.KILL, point, 0), topo);
    }
    long stall = topo.ttlMillis() + between(rnd, 0, topo.ttlMillis() * 2);
    return targeted(
        faults,
        t,
        stall + 1200,
        new Fault.ClientFault(client, Fault.ClientAction.PAUSE, point, stall),
        topo);
  }

  /**
   * Adds a client fault and, if it is targeted, the latency that widens its window ({@link
   * WindowWidening}) for the same episode, listed first so that it is on before the point is armed.
   * Draws nothing, so every seed keeps its other choices.
   */
  private static long targeted(
      List<ScheduledFault> faults, long t, long duration, Fault.ClientFault f, Topology topo) {
    WindowWidening.of(f, topo).ifPresent(latency -> add(faults, t, duration, latency, topo));
    return add(faults, t, duration, f, topo);
  }

  /**
   * One storage fault: a kill with a restart at once or at the heal, a pause longer than the
   * clients' storage timeout, some clients cut off from it, or their requests slowed past the
   * timeout. Every other episode also pauses a holder right after its fence, so that stale writes
   * cross the storage fault.
   */
  static long storage(
      List<ScheduledFault> faults, long t, SplittableRandom rnd, Topology topo, int episode) {
    long length = between(rnd, 1500, 2500);
    Fault f =
        switch (rnd.nextInt(5)) {
          case 0 -> new Fault.StorageFault(Fault.StorageAction.KILL, Fault.Rejoin.IMMEDIATE);
          case 1 -> new Fault.StorageFault(Fault.StorageAction.KILL, Fault.Rejoin.AT_HEAL);
          case 2 -> new Fault.StorageFault(Fault.StorageAction.PAUSE, Fault.Rejoin.AT_HEAL);
          case 3 ->
              new Fault.Partition(
                  "storage-cut",
                  storageLinks(rnd, topo),
                  rnd.nextBoolean() ? Fault.CutMode.REFUSE : Fault.CutMode.BLACKHOLE);
          default -> new Fault.Latency(storageLinks(rnd, topo), (int) between(rnd, 1100, 1600), 0);
        };
    if (episode % 2 == 0) {
      long stall = topo.ttlMillis() * 2;
      add(
          faults,
          t,
          stall + 600,
          new Fault.ClientFault(
              rnd.nextInt(topo.clients()), Fault.ClientAction.PAUSE, Point.AFTER_FENCE, stall),
          topo);
    }
    return add(faults, t + 200, length, f, topo);
  }

  /** Some clients' links to the storage service (at least one, never all of them if more). */
  static Set<Link> storageLinks(SplittableRandom rnd, Topology topo) {
    Set<Link> links = new HashSet<>();
    int count = 1 + rnd.nextInt(Math.max(1, topo.clients() - 1));
    while (links.size() < count) {
      links.add(Link.toStorage(rnd.nextInt(topo.clients())));
    }
    return links;
  }

  /** The negative control: the storage service restarted with its database gone. */
  static long storageWipe(
      List<ScheduledFault> faults, long t, SplittableRandom rnd, Topology topo) {
    return add(
            faults,
            t + between(rnd, 200, 600),
            0,
            new Fault.StorageFault(Fault.StorageAction.WIPE, Fault.Rejoin.IMMEDIATE),
            topo)
        + 1000;
  }
}
