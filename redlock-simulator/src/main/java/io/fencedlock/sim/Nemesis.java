package io.fencedlock.sim;

import java.util.List;

/**
 * Applies the plan's faults at their times and heals everything at the horizon: paused nodes
 * resume, crashed ones restart, paused clients resume, cut links mend, the network stops losing and
 * delaying. Clock offsets stay: setting a clock back to true time would itself be a step, and a
 * constant offset changes nothing once it stopped moving.
 *
 * <p>A crash that would leave more than f nodes without their memory at once keeps its memory
 * instead: a majority losing its data at once is an outage by design (docs/analysis.md §5), which
 * no acquire is meant to survive. Unfenced clients cannot detect a lost memory at all, so under
 * them no crash loses it. With the marker check switched off, nothing is detected and nothing is
 * held back.
 */
final class Nemesis {
  private final World world;
  private final Workload workload;
  private final LeaseBook leases;
  private final CallBook calls;
  private final int clients;
  private final int maxAmnesic;
  private final long driftFloorNanos;
  private final long[] forwardSteps;
  private boolean clockBeyondDrift;
  private long mostNegativeOffset;

  Nemesis(
      World world,
      Workload workload,
      LeaseBook leases,
      CallBook calls,
      Plan plan,
      long driftFloorNanos) {
    this.world = world;
    this.workload = workload;
    this.leases = leases;
    this.calls = calls;
    this.clients = plan.clients();
    boolean unchecked = plan.bugs().contains(Bug.NO_MARKER_CHECK);
    this.maxAmnesic = !plan.fencing() ? 0 : unchecked ? plan.nodes() : (plan.nodes() - 1) / 2;
    this.driftFloorNanos = driftFloorNanos;
    this.forwardSteps = new long[plan.nodes()];
  }

  boolean clockSteppedBeyondDrift() {
    return clockBeyondDrift;
  }

  /** How far behind true time the slowest node clock is (0 or negative). */
  long mostNegativeOffset() {
    return mostNegativeOffset;
  }

  void schedule(List<Fault> faults) {
    for (Fault fault : faults) {
      if (fault instanceof Fault.ClientClose close) {
        // Closing is the client's own call: it waits while the client is paused.
        world.loop.at(close.at(), close.client(), () -> workload.close(close.client()));
      } else {
        world.loop.at(fault.at(), Event.WORLD, () -> apply(fault));
      }
    }
  }

  private void apply(Fault fault) {
    EventLoop loop = world.loop;
    Trace trace = world.trace;
    Stats stats = world.stats;
    long now = loop.now();
    if (fault instanceof Fault.NodePause p) {
      SimNode node = world.nodes[p.node()];
      if (node.isDown() || node.isPaused()) {
        return;
      }
      stats.nodePauses++;
      trace.add(now, "node-paused", -1, p.node(), p.durationNanos(), null);
      node.pause();
      loop.after(p.durationNanos(), Event.WORLD, () -> resumeNode(node));
    } else if (fault instanceof Fault.NodeCrash c) {
      crash(c);
    } else if (fault instanceof Fault.ClockStep s) {
      SimNode node = world.nodes[s.node()];
      node.stepClock(s.deltaNanos());
      mostNegativeOffset = Math.min(mostNegativeOffset, node.clockOffsetNanos());
      if (s.deltaNanos() > 0) {
        stats.clockStepsForward++;
        forwardSteps[s.node()] += s.deltaNanos();
        clockBeyondDrift |= forwardSteps[s.node()] > driftFloorNanos;
      } else {
        stats.clockStepsBack++;
      }
      trace.add(now, "clock-step", -1, s.node(), s.deltaNanos(), null);
    } else if (fault instanceof Fault.ClientPause p) {
      if (loop.isPaused(p.client())) {
        return;
      }
      stats.clientPauses++;
      trace.add(now, "client-paused", p.client(), -1, p.durationNanos(), null);
      loop.pause(p.client());
      leases.clientPaused(p.client());
      calls.clientPaused(p.client());
      loop.after(p.durationNanos(), Event.WORLD, () -> resumeClient(p.client()));
    } else if (fault instanceof Fault.ThrowingMetrics t) {
      stats.throwingSinks++;
      trace.add(now, "metrics-throw", t.client(), -1, Long.MIN_VALUE, null);
      workload.metricsThrow(t.client());
    } else if (fault instanceof Fault.LinkCut cut) {
      stats.linkCuts++;
      trace.add(now, "link-cut", cut.client(), cut.node(), cut.durationNanos(), null);
      world.network.cut(cut.client(), cut.node(), true);
      loop.after(
          cut.durationNanos(),
          Event.WORLD,
          () -> world.network.cut(cut.client(), cut.node(), false));
    }
  }

  private void crash(Fault.NodeCrash c) {
    SimNode node = world.nodes[c.node()];
    if (node.isDown()) {
      return;
    }
    boolean keepsMemory =
        c.keepsMemory() || maxAmnesic == 0 || (!node.isAmnesic() && amnesicNodes() >= maxAmnesic);
    if (keepsMemory) {
      world.stats.crashesWithMemory++;
    } else {
      world.stats.crashesWithoutMemory++;
    }
    world.trace.add(
        world.loop.now(), keepsMemory ? "crash" : "crash-wiped", -1, c.node(), c.downNanos(), null);
    node.crash(keepsMemory);
    world.loop.after(c.downNanos(), Event.WORLD, () -> restart(node));
  }

  private int amnesicNodes() {
    int n = 0;
    for (SimNode node : world.nodes) {
      if (node.isAmnesic()) {
        n++;
      }
    }
    return n;
  }

  private void resumeNode(SimNode node) {
    if (node.isPaused()) {
      world.trace.add(world.loop.now(), "node-resumed", -1, node.index(), Long.MIN_VALUE, null);
      node.resume();
    }
  }

  private void restart(SimNode node) {
    if (node.isDown()) {
      world.trace.add(world.loop.now(), "restart", -1, node.index(), Long.MIN_VALUE, null);
      node.restart();
      world.resubscribe(node);
    }
  }

  private void resumeClient(int client) {
    if (world.loop.isPaused(client)) {
      world.trace.add(world.loop.now(), "client-resumed", client, -1, Long.MIN_VALUE, null);
      world.loop.resume(client);
      leases.clientResumed(client);
      calls.clientResumed(client);
    }
  }

  /** Everything back to normal, at once. */
  void heal(NetProfile healed) {
    world.trace.note(world.loop.now(), "heal");
    for (SimNode node : world.nodes) {
      resumeNode(node);
      restart(node);
    }
    for (int client = 0; client < clients; client++) {
      resumeClient(client);
    }
    world.network.healCuts();
    world.network.setProfile(healed);
  }
}
