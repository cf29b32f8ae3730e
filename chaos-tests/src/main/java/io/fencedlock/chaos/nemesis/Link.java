package io.fencedlock.chaos.nemesis;

/**
 * The network path from one client to one Redis node, or to the storage service (one proxy in the
 * fixture). Immutable.
 *
 * @param client client index, from 0
 * @param node node index, from 0, or {@link #STORAGE}
 */
public record Link(int client, int node) {
  /** The "node" index of the storage service. */
  public static final int STORAGE = io.fencedlock.chaos.fixture.LinkProxies.STORAGE;

  public Link {
    if (client < 0 || node < STORAGE) {
      throw new IllegalArgumentException("client and node must be >= 0: " + client + ", " + node);
    }
  }

  /** The link from {@code client} to the storage service. */
  public static Link toStorage(int client) {
    return new Link(client, STORAGE);
  }

  /** Whether this link leads to the storage service rather than to a node. */
  public boolean isStorage() {
    return node == STORAGE;
  }

  @Override
  public String toString() {
    return "c" + client + "->" + (isStorage() ? "storage" : "n" + node);
  }
}
