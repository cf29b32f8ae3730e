package io.fencedlock.chaos.nemesis;

import io.fencedlock.chaos.client.Point;
import io.fencedlock.testkit.Persistence;
import java.util.List;
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

  /**
   * What the fault touches, for the checkers: links as {@code c0>n1} or {@code c0>storage}, nodes
   * as {@code n1}, clients as {@code c2}, the storage service as {@code storage}.
   */
  List<String> targets();

  /** The links' targets ({@code c0>n1}), in a stable order. */
  private static List<String> links(Set<Link> links) {
    return links.stream()
        .map(l -> "c" + l.client() + ">" + (l.isStorage() ? "storage" : "n" + l.node()))
        .sorted()
        .toList();
  }

  /** The nodes' targets ({@code n1}). */
  private static List<String> nodes(SortedSet<Integer> nodes) {
    return nodes.stream().map(n -> "n" + n).toList();
  }

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
    public List<String> targets() {
      return Fault.links(cut);
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
    public List<String> targets() {
      return Fault.links(links);
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
    public List<String> targets() {
      return Fault.links(links);
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
    public List<String> targets() {
      return Fault.nodes(nodes);
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
    public List<String> targets() {
      return Fault.nodes(nodes);
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
   * The nodes' wall clocks jump by {@code stepMillis} (forward if positive, back if negative).
   * Redis expires keys by its wall clock, so a step forward ends every existing key's TTL early.
   * Applied to real clocks through libfaketime ({@link ClockFaults}), or, where that is not
   * available, modelled on the lock keys (PTTL, then PEXPIRE with PTTL − step: {@link
   * ClockStepFaults}).
   */
  record ClockStep(SortedSet<Integer> nodes, long stepMillis) implements Fault {
    public ClockStep {
      nodes = new TreeSet<>(nodes);
    }

    @Override
    public List<String> targets() {
      return Fault.nodes(nodes);
    }

    @Override
    public String kind() {
      return "clock-step";
    }

    @Override
    public String describe() {
      return "clock " + (stepMillis >= 0 ? "+" : "") + stepMillis + " ms on nodes " + nodes;
    }
  }

  /** What the nemesis does to a client process. */
  enum ClientAction {
    /** SIGSTOP, then SIGCONT after the fault's pause: a long GC pause of a real process. */
    PAUSE,
    /** SIGKILL: the process and its leases are gone; its worker starts a fresh one. */
    KILL
  }

  /**
   * A client process is paused for {@code millis} or killed, at once ({@link Point#ANY}) or when it
   * next reaches {@code point} while the fault lasts.
   */
  record ClientFault(int client, ClientAction action, Point point, long millis) implements Fault {
    public ClientFault {
      java.util.Objects.requireNonNull(action, "action");
      java.util.Objects.requireNonNull(point, "point");
    }

    @Override
    public List<String> targets() {
      return List.of("c" + client);
    }

    @Override
    public String kind() {
      return action == ClientAction.PAUSE ? "client-pause" : "client-kill";
    }

    @Override
    public String describe() {
      return (action == ClientAction.PAUSE
              ? "SIGSTOP client " + client + " for " + millis + " ms"
              : "SIGKILL client " + client)
          + (point == Point.ANY ? "" : " at " + point.wireName());
    }
  }

  /** What the nemesis does to the storage service's process. */
  enum StorageAction {
    /** SIGKILL, restarted on the same database (at once or at heal). */
    KILL,
    /** SIGSTOP until the heal. */
    PAUSE,
    /** SIGKILL, database deleted, restarted empty: the storage amnesia negative control. */
    WIPE
  }

  /** The storage service's process is killed, paused or wiped. */
  record StorageFault(StorageAction action, Rejoin rejoin) implements Fault {
    public StorageFault {
      java.util.Objects.requireNonNull(action, "action");
      java.util.Objects.requireNonNull(rejoin, "rejoin");
    }

    @Override
    public List<String> targets() {
      return List.of("storage");
    }

    @Override
    public String kind() {
      return "storage-" + action.name().toLowerCase(java.util.Locale.ROOT);
    }

    @Override
    public String describe() {
      return switch (action) {
        case KILL -> "kill -9 the storage service, restart " + rejoin;
        case PAUSE -> "SIGSTOP the storage service";
        case WIPE -> "kill -9 the storage service, delete its database, restart " + rejoin;
      };
    }
  }

  /**
   * A Toxiproxy toxic on the links: {@code type} is one of latency, bandwidth, slicer, timeout (a
   * one-way blackhole), limit_data, slow_close; {@code attributes} are its attributes (latency,
   * jitter, rate, average_size, size_variation, delay, timeout, bytes); {@code toxicity} is the
   * share of connections it applies to.
   */
  record Toxic(
      String type,
      Set<Link> links,
      boolean upstream,
      float toxicity,
      java.util.SortedMap<String, Long> attributes)
      implements Fault {
    public Toxic {
      links = Set.copyOf(links);
      attributes = java.util.Collections.unmodifiableSortedMap(new java.util.TreeMap<>(attributes));
      if (toxicity <= 0 || toxicity > 1) {
        throw new IllegalArgumentException("toxicity must be in (0, 1]: " + toxicity);
      }
    }

    @Override
    public List<String> targets() {
      return Fault.links(links);
    }

    @Override
    public String kind() {
      return type.replace('_', '-');
    }

    @Override
    public String describe() {
      return type
          + (upstream ? " upstream " : " downstream ")
          + attributes
          + (toxicity < 1 ? String.format(java.util.Locale.ROOT, " toxicity %.2f", toxicity) : "")
          + " on "
          + new TreeSet<>(links.stream().map(Link::toString).toList());
    }
  }

  /**
   * The nodes' wall clocks flip between their offset and the offset plus {@code deltaMillis} every
   * {@code periodMillis} while the fault lasts (a clock strobe), then return to their offset.
   */
  record ClockStrobe(SortedSet<Integer> nodes, long deltaMillis, long periodMillis)
      implements Fault {
    public ClockStrobe {
      nodes = new TreeSet<>(nodes);
      if (periodMillis < 1) {
        throw new IllegalArgumentException("periodMillis must be >= 1: " + periodMillis);
      }
    }

    @Override
    public List<String> targets() {
      return Fault.nodes(nodes);
    }

    @Override
    public String kind() {
      return "clock-strobe";
    }

    @Override
    public String describe() {
      return "clock strobe " + deltaMillis + " ms every " + periodMillis + " ms on nodes " + nodes;
    }
  }

  /**
   * The nodes lose power: killed with SIGKILL, their append-only file cut back to its size at the
   * last fsync (once a second, as {@code appendfsync everysec} does), restarted. What they wrote
   * after that fsync is gone, as after a power loss; the marker usually survives.
   */
  record PowerLoss(SortedSet<Integer> nodes) implements Fault {
    public PowerLoss {
      nodes = new TreeSet<>(nodes);
    }

    @Override
    public List<String> targets() {
      return Fault.nodes(nodes);
    }

    @Override
    public String kind() {
      return "power-loss";
    }

    @Override
    public String describe() {
      return "power loss of nodes " + nodes + " (AOF cut back to its last everysec fsync)";
    }
  }

  /**
   * The client processes' wall clocks jump by {@code stepMillis} (libfaketime). The library reads
   * the wall clock only for epochs: a client whose clock is behind re-admits a node with an epoch
   * from the high-water mark rather than from its clock.
   */
  record ClientClockStep(SortedSet<Integer> clients, long stepMillis) implements Fault {
    public ClientClockStep {
      clients = new TreeSet<>(clients);
    }

    @Override
    public List<String> targets() {
      return clients.stream().map(c -> "c" + c).toList();
    }

    @Override
    public String kind() {
      return "client-clock";
    }

    @Override
    public String describe() {
      return "client clock "
          + (stepMillis >= 0 ? "+" : "")
          + stepMillis
          + " ms on clients "
          + clients;
    }
  }
}
