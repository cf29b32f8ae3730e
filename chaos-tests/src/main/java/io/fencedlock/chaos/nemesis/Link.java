package io.fencedlock.chaos.nemesis;

/**
 * The network path from one client to one Redis node (one proxy in the fixture). Immutable.
 *
 * @param client client index, from 0
 * @param node node index, from 0
 */
public record Link(int client, int node) {
  public Link {
    if (client < 0 || node < 0) {
      throw new IllegalArgumentException("client and node must be >= 0: " + client + ", " + node);
    }
  }

  @Override
  public String toString() {
    return "c" + client + "->n" + node;
  }
}
