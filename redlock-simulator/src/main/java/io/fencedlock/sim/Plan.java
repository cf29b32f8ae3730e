package io.fencedlock.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * One schedule as data: the deployment, the clients' configuration, the operations and the faults
 * with their times, and the seed of the network's randomness (delays and losses). A plan and its
 * seeds reproduce a run exactly; the shrinker makes smaller plans with the same seeds.
 *
 * @param seed the schedule's seed; the network, ids and jitter are drawn from streams split off it
 * @param horizonNanos when faults stop and the schedule heals
 */
public record Plan(
    long seed,
    int nodes,
    int clients,
    int resources,
    boolean fencing,
    boolean tokenPrediction,
    int maxLocalHandoffs,
    NetProfile net,
    long horizonNanos,
    List<Op> ops,
    List<Fault> faults,
    Set<Bug> bugs) {

  public Plan {
    ops = List.copyOf(ops);
    faults = List.copyOf(faults);
    bugs = Set.copyOf(bugs);
  }

  Plan with(List<Op> newOps, List<Fault> newFaults) {
    return new Plan(
        seed,
        nodes,
        clients,
        resources,
        fencing,
        tokenPrediction,
        maxLocalHandoffs,
        net,
        horizonNanos,
        newOps,
        newFaults,
        bugs);
  }

  Plan withShape(int newClients, int newResources) {
    return new Plan(
        seed,
        nodes,
        newClients,
        newResources,
        fencing,
        tokenPrediction,
        maxLocalHandoffs,
        net,
        horizonNanos,
        ops,
        faults,
        bugs);
  }

  /** The plan, readable. */
  List<String> describe() {
    List<String> lines = new ArrayList<>();
    lines.add(
        String.format(
            "seed %d: %d nodes, %d clients, %d resources, fencing %s, prediction %s, "
                + "handoffs <= %d, horizon %.0f ms%s",
            seed,
            nodes,
            clients,
            resources,
            fencing ? "on" : "off",
            tokenPrediction ? "on" : "off",
            maxLocalHandoffs,
            horizonNanos / 1e6,
            bugs.isEmpty() ? "" : ", bugs put back: " + bugs));
    lines.add("network: " + net.describe());
    for (Fault f : faults) {
      lines.add("fault " + f.describe());
    }
    for (Op op : ops) {
      lines.add("op    " + op.describe());
    }
    return lines;
  }
}
