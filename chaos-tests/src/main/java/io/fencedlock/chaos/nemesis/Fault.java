package io.fencedlock.chaos.nemesis;

import io.fencedlock.testkit.Persistence;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * A fault as a value: what to break, never how. Appliers ({@link FaultApplier}) carry faults out
 * and heal them. Immutable; the components are copied.
 */
public sealed interface Fault {

  /** A short kind name for results and timelines. */
  String kind();

  /** A one-line human description. */
  String describe();

  /** How a partition cuts a link. */
  enum CutMode {
    /** The proxy is disabled: connects are refused, open connections are closed. */
    REFUSE,
    /**
     * A {@code timeout} toxic in both directions: bytes vanish, connections stay open (blackhole).
     */
    BLACKHOLE
  }

  /** When a killed node comes back. */
  enum Rejoin {
    /** Restarted right after the kill. */
    IMMEDIATE,
    /** Restarted when the fault heals; schedules make that at least the maximum lease TTL later. */
    AT_HEAL
  }

  /** The given client-to-node links are cut (a grudge, see {@link Grudges}). */
  record Partition(String name, Set<Link> cut, CutMode mode) implements Fault {
    public Partition {
      cut = Set.copyOf(cut);
    }

    @Override
    public String kind() {
      return mode == CutMode.BLACKHOLE ? "blackhole" : "partition";
    }

    @Override
    public String describe() {
      return kind() + " " + name + " " + new TreeSet<>(cut.stream().map(Link::toString).toList());
    }
  }

  /** Replies on the links are delayed by {@code millis} ± {@code jitterMillis}. */
  record Latency(Set<Link> links, int millis, int jitterMillis) implements Fault {
    public Latency {
      links = Set.copyOf(links);
    }

    @Override
    public String kind() {
      return "latency";
    }

    @Override
    public String describe() {
      return "latency "
          + millis
          + "±"
          + jitterMillis
          + " ms on "
          + new TreeSet<>(links.stream().map(Link::toString).toList());
    }
  }

  /** Connections on the links are reset (TCP RST) on their next request. */
  record ResetPeer(Set<Link> links) implements Fault {
    public ResetPeer {
      links = Set.copyOf(links);
    }

    @Override
    public String kind() {
      return "reset-peer";
    }

    @Override
    public String describe() {
      return "reset_peer on " + new TreeSet<>(links.stream().map(Link::toString).toList());
    }
  }

  /** The Redis processes are stopped with SIGSTOP and continued at heal. */
  record PauseNodes(SortedSet<Integer> nodes) implements Fault {
    public PauseNodes {
      nodes = new TreeSet<>(nodes);
    }

    @Override
    public String kind() {
      return "pause-nodes";
    }

    @Override
    public String describe() {
      return "SIGSTOP nodes " + nodes;
    }
  }

  /** The Redis processes are killed with SIGKILL and restarted in {@code restartWith}. */
  record KillNodes(SortedSet<Integer> nodes, Persistence restartWith, Rejoin rejoin)
      implements Fault {
    public KillNodes {
      nodes = new TreeSet<>(nodes);
    }

    @Override
    public String kind() {
      return "kill-nodes";
    }

    @Override
    public String describe() {
      return "kill -9 nodes " + nodes + ", restart " + restartWith + " " + rejoin;
    }
  }

  /**
   * The nodes' wall clocks jump forward by {@code stepMillis}. Redis expires keys by its wall
   * clock, so the effect is that every existing key's remaining TTL shrinks by the step; that is
   * how it is modelled (PTTL, then PEXPIRE with PTTL − step), since the real clock is shared.
   */
  record ClockStep(SortedSet<Integer> nodes, long stepMillis) implements Fault {
    public ClockStep {
      nodes = new TreeSet<>(nodes);
    }

    @Override
    public String kind() {
      return "clock-step";
    }

    @Override
    public String describe() {
      return "clock +" + stepMillis + " ms on nodes " + nodes;
    }
  }

  /** The client's next lock holder stalls between acquiring and writing, like a GC pause. */
  record ClientPause(int client, long millis) implements Fault {
    @Override
    public String kind() {
      return "client-pause";
    }

    @Override
    public String describe() {
      return "client " + client + " stalls " + millis + " ms after its next acquire";
    }
  }
}
