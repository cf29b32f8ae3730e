package io.fencedlock.chaos.nemesis;

import java.util.HashSet;
import java.util.Set;

/**
 * Pure functions that build partitions as the set of links to cut (Jepsen's grudges). Thread-safe.
 */
public final class Grudges {
  private Grudges() {}

  /** Cuts every link except those from each client to the nodes it keeps. */
  static Set<Link> keepOnly(
      int clients, int nodes, java.util.function.BiPredicate<Integer, Integer> keeps) {
    Set<Link> cut = new HashSet<>();
    for (int c = 0; c < clients; c++) {
      for (int n = 0; n < nodes; n++) {
        if (!keeps.test(c, n)) {
          cut.add(new Link(c, n));
        }
      }
    }
    return cut;
  }

  /**
   * Kleppmann's split: even clients reach the first majority (A, B, C of five), odd clients the
   * last (C, D, E); the middle node is shared.
   */
  public static Set<Link> kleppmannSplit(int clients, int nodes) {
    int majority = nodes / 2 + 1;
    return keepOnly(clients, nodes, (c, n) -> c % 2 == 0 ? n < majority : n >= nodes - majority);
  }

  /** The node that both halves of {@link #kleppmannSplit} reach. */
  public static int sharedNode(int nodes) {
    return nodes / 2;
  }

  /** Every client loses node {@code node}. */
  public static Set<Link> isolateNode(int clients, int nodes, int node) {
    return keepOnly(clients, nodes, (c, n) -> n != node);
  }

  /**
   * Client {@code c} reaches only the majority of nodes starting at {@code c + offset}, wrapping
   * around.
   */
  public static Set<Link> majoritiesRing(int clients, int nodes, int offset) {
    int majority = nodes / 2 + 1;
    return keepOnly(clients, nodes, (c, n) -> Math.floorMod(n - c - offset, nodes) < majority);
  }

  /** One client loses the given nodes; the others keep everything. */
  public static Set<Link> clientLoses(int clients, int client, Set<Integer> lost) {
    Set<Link> cut = new HashSet<>();
    for (int n : lost) {
      if (client < clients) {
        cut.add(new Link(client, n));
      }
    }
    return cut;
  }

  /** Every client loses the given nodes. */
  public static Set<Link> allLose(int clients, Set<Integer> lost) {
    Set<Link> cut = new HashSet<>();
    for (int c = 0; c < clients; c++) {
      for (int n : lost) {
        cut.add(new Link(c, n));
      }
    }
    return cut;
  }
}
