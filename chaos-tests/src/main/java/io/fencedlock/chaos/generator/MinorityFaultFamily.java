package io.fencedlock.chaos.generator;

import io.fencedlock.chaos.nemesis.Fault;
import io.fencedlock.chaos.nemesis.Grudges;
import io.fencedlock.testkit.Persistence;
import java.util.List;
import java.util.SortedSet;
import java.util.SplittableRandom;

/**
 * The table of minority fault families, the one fault space of the {@link FaultMix#MINORITY} mix.
 * Both the seeded generator ({@link MinorityFaults}: {@code ./fencedlock chaos} and its replayable
 * seeds) and the jqwik arbitraries (where failing schedules shrink) draw from it, so a replayed
 * seed and a shrunk counterexample come from the same faults.
 *
 * <p>A fault is drawn as: a minority of nodes (1 to {@link Topology#minority()}), a family, then
 * the family's own {@link Choice}s in order. Every family leaves each client a quorum of reachable,
 * healthy nodes. The constants' order is the seeded generator's, so a seed keeps giving the same
 * schedule. Immutable and thread-safe.
 */
enum MinorityFaultFamily {
  /** Kleppmann's split: each client reaches its own majority, one node shared. */
  KLEPPMANN_SPLIT() {
    @Override
    Fault build(Topology topo, SortedSet<Integer> nodes, int[] choices) {
      return new Fault.Partition(
          "kleppmann-split",
          Grudges.kleppmannSplit(topo.clients(), topo.nodes()),
          Fault.CutMode.REFUSE);
    }
  },
  /** The first of the nodes cut off from every client, refused (choice 1) or blackholed (0). */
  ISOLATE_NODE(Choice.COIN) {
    @Override
    Fault build(Topology topo, SortedSet<Integer> nodes, int[] choices) {
      int node = nodes.first();
      return new Fault.Partition(
          "isolate-n" + node,
          Grudges.isolateNode(topo.clients(), topo.nodes(), node),
          choices[0] == 1 ? Fault.CutMode.REFUSE : Fault.CutMode.BLACKHOLE);
    }
  },
  /** Each client keeps a different majority, starting at the chosen node. */
  MAJORITIES_RING(Choice.NODE) {
    @Override
    Fault build(Topology topo, SortedSet<Integer> nodes, int[] choices) {
      return new Fault.Partition(
          "majorities-ring",
          Grudges.majoritiesRing(topo.clients(), topo.nodes(), choices[0]),
          Fault.CutMode.REFUSE);
    }
  },
  /** The chosen client alone loses the nodes. */
  CLIENT_SUBSET(Choice.CLIENT) {
    @Override
    Fault build(Topology topo, SortedSet<Integer> nodes, int[] choices) {
      return new Fault.Partition(
          "client-subset",
          Grudges.clientLoses(topo.clients(), choices[0], nodes),
          Fault.CutMode.REFUSE);
    }
  },
  /** Replies from the nodes delayed by 10 to 60 ms, with 0 to 30 ms of jitter. */
  LATENCY(Choice.range(10, 60), Choice.range(0, 30)) {
    @Override
    Fault build(Topology topo, SortedSet<Integer> nodes, int[] choices) {
      return new Fault.Latency(Grudges.allLose(topo.clients(), nodes), choices[0], choices[1]);
    }
  },
  /** The nodes blackholed for every client: bytes vanish, connections stay open. */
  BLACKHOLE() {
    @Override
    Fault build(Topology topo, SortedSet<Integer> nodes, int[] choices) {
      return new Fault.Partition(
          "blackhole", Grudges.allLose(topo.clients(), nodes), Fault.CutMode.BLACKHOLE);
    }
  },
  /** Connections to the nodes reset on their next request. */
  RESET_PEER() {
    @Override
    Fault build(Topology topo, SortedSet<Integer> nodes, int[] choices) {
      return new Fault.ResetPeer(Grudges.allLose(topo.clients(), nodes));
    }
  },
  /** The nodes SIGSTOPped. */
  PAUSE() {
    @Override
    Fault build(Topology topo, SortedSet<Integer> nodes, int[] choices) {
      return new Fault.PauseNodes(nodes);
    }
  },
  /** The nodes killed with their data kept, back at once (choice 1) or at the heal (0). */
  KILL_KEEPING_DATA(Choice.COIN) {
    @Override
    Fault build(Topology topo, SortedSet<Integer> nodes, int[] choices) {
      return new Fault.KillNodes(
          nodes,
          Persistence.AOF_ALWAYS,
          choices[0] == 1 ? Fault.Rejoin.IMMEDIATE : Fault.Rejoin.AT_HEAL);
    }
  },
  /** The nodes killed and restarted empty at the heal, after at least the maximum TTL. */
  KILL_EMPTY_AT_HEAL() {
    @Override
    Fault build(Topology topo, SortedSet<Integer> nodes, int[] choices) {
      return new Fault.KillNodes(nodes, Persistence.NONE, Fault.Rejoin.AT_HEAL);
    }
  },
  /** The nodes killed and restarted empty at once (kept out of quorums until re-admitted). */
  KILL_EMPTY_IMMEDIATE() {
    @Override
    Fault build(Topology topo, SortedSet<Integer> nodes, int[] choices) {
      return new Fault.KillNodes(nodes, Persistence.NONE, Fault.Rejoin.IMMEDIATE);
    }
  };

  private final List<Choice> choices;

  MinorityFaultFamily(Choice... choices) {
    this.choices = List.of(choices);
  }

  /** The choices this family's fault depends on beyond the nodes, in the order they are drawn. */
  List<Choice> choices() {
    return choices;
  }

  /**
   * The fault for {@code nodes} (a minority, at least one) and one value per {@link #choices()},
   * each within its {@link Choice#min} and {@link Choice#max}. Pure.
   */
  abstract Fault build(Topology topo, SortedSet<Integer> nodes, int[] choices);

  /**
   * One whole-number choice of a family, from {@code min} to {@code max} inclusive, as functions of
   * the topology. Immutable.
   */
  record Choice(Kind kind, int low, int high) {
    /** Yes (1) or no (0). */
    static final Choice COIN = new Choice(Kind.COIN, 0, 1);

    /** A node index. */
    static final Choice NODE = new Choice(Kind.NODE, 0, 0);

    /** A client index. */
    static final Choice CLIENT = new Choice(Kind.CLIENT, 0, 0);

    /** What a choice ranges over, and how the seeded generator draws it. */
    enum Kind {
      COIN,
      NODE,
      CLIENT,
      RANGE
    }

    /** A number from {@code min} to {@code max}. */
    static Choice range(int min, int max) {
      return new Choice(Kind.RANGE, min, max);
    }

    int min(Topology topo) {
      return kind == Kind.RANGE ? low : 0;
    }

    int max(Topology topo) {
      return switch (kind) {
        case COIN -> 1;
        case NODE -> topo.nodes() - 1;
        case CLIENT -> topo.clients() - 1;
        case RANGE -> high;
      };
    }

    /**
     * Draws the choice from {@code rnd}, the way the generator always has (replayed seeds depend on
     * it).
     */
    int draw(SplittableRandom rnd, Topology topo) {
      return switch (kind) {
        case COIN -> rnd.nextBoolean() ? 1 : 0;
        case NODE -> rnd.nextInt(topo.nodes());
        case CLIENT -> rnd.nextInt(topo.clients());
        case RANGE -> (int) ScheduleGenerator.between(rnd, low, high);
      };
    }
  }
}
