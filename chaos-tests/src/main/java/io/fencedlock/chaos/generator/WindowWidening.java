package io.fencedlock.chaos.generator;

import io.fencedlock.chaos.client.Point;
import io.fencedlock.chaos.nemesis.Fault;
import io.fencedlock.chaos.nemesis.Link;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * The latency that widens a targeted client fault's window: a latency toxic on that client's links
 * where the window lives (its node links for the phases of an acquire, a release and a renewal; its
 * storage link between fence and put), scheduled beside the client fault for the same episode and
 * healed with it. A renewal also gets the storage link: it comes due a third of the TTL into a
 * hold, and the workload's holds (100 ms of work and five storage calls) end before that unless
 * those calls are slowed. It is a fault of its own in the schedule, so replays run it and the
 * shrinker can drop it. Pure; thread-safe.
 */
public final class WindowWidening {
  /**
   * The added latency: tens of milliseconds, below a third of the node timeout (200 ms in every
   * experiment) and far below the storage timeout, so the window's calls are slowed, never failed;
   * five storage calls slowed by it outlast a third of the workload's 1 s TTL.
   */
  public static final int MILLIS = 60;

  private WindowWidening() {}

  /**
   * The latency fault that widens {@code fault}'s window, or none for a fault signalled at once.
   */
  public static Optional<Fault.Latency> of(Fault.ClientFault fault, Topology topo) {
    if (fault.point() == Point.ANY) {
      return Optional.empty();
    }
    Set<Link> links = new HashSet<>();
    if (fault.point() != Point.AFTER_FENCE) {
      for (int node = 0; node < topo.nodes(); node++) {
        links.add(new Link(fault.client(), node));
      }
    }
    if (fault.point() == Point.AFTER_FENCE || fault.point() == Point.IN_RENEWAL) {
      links.add(Link.toStorage(fault.client()));
    }
    return Optional.of(new Fault.Latency(links, Math.min(MILLIS, millisBelow(topo)), 0));
  }

  /** A third of the node timeout: a bound for topologies with a short one. */
  private static int millisBelow(Topology topo) {
    return (int) Math.max(1, topo.nodeTimeoutMillis() / 3);
  }
}
