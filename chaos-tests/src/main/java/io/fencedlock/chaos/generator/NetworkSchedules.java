package io.fencedlock.chaos.generator;

import static io.fencedlock.chaos.generator.ScheduleGenerator.add;
import static io.fencedlock.chaos.generator.ScheduleGenerator.between;
import static io.fencedlock.chaos.generator.ScheduleGenerator.randomNodes;

import io.fencedlock.chaos.nemesis.Fault;
import io.fencedlock.chaos.nemesis.Grudges;
import io.fencedlock.chaos.nemesis.Link;
import io.fencedlock.chaos.nemesis.ScheduledFault;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * Schedules of network toxics on a minority of nodes' links: latency above the node timeout (late
 * replies), one-way blackholes, toxicity below 1, bandwidth and slicer. Pure; thread-safe.
 */
final class NetworkSchedules {
  private NetworkSchedules() {}

  /** One toxic at a time. */
  static long network(List<ScheduledFault> faults, long t, SplittableRandom rnd, Topology topo) {
    return add(faults, t, between(rnd, 800, 1500), toxic(rnd, topo), topo);
  }

  /** A toxic on every client's links to a minority of nodes. */
  static Fault toxic(SplittableRandom rnd, Topology topo) {
    Set<Link> links =
        Grudges.allLose(
            topo.clients(), randomNodes(rnd, topo.nodes(), 1 + rnd.nextInt(topo.minority())));
    Map<String, Long> a = new TreeMap<>();
    float toxicity = 1;
    String type;
    boolean upstream = rnd.nextBoolean();
    switch (rnd.nextInt(6)) {
      case 0 -> { // late replies: past the node timeout, so calls time out and replies come late
        type = "latency";
        upstream = false;
        a.put("latency", topo.nodeTimeoutMillis() + between(rnd, 50, topo.nodeTimeoutMillis() * 2));
        a.put("jitter", between(rnd, 0, 50));
      }
      case 1 -> { // a one-way blackhole: requests or replies vanish, connections stay open
        type = "timeout";
        a.put("timeout", 0L);
      }
      case 2 -> { // the same, on about half of the connections
        type = "timeout";
        a.put("timeout", 0L);
        toxicity = 0.5f;
      }
      case 3 -> { // late replies on about half of the connections
        type = "latency";
        upstream = false;
        a.put("latency", topo.nodeTimeoutMillis() * 2);
        toxicity = 0.5f;
      }
      case 4 -> { // a thin pipe
        type = "bandwidth";
        a.put("rate", between(rnd, 1, 8));
      }
      default -> { // replies in small pieces with gaps
        type = "slicer";
        a.put("average_size", between(rnd, 1, 8));
        a.put("size_variation", 0L);
        a.put("delay", between(rnd, 1000, 20_000));
      }
    }
    return new Fault.Toxic(type, links, upstream, toxicity, new TreeMap<>(a));
  }
}
