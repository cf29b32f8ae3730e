package io.fencedlock.chaos.generator;

/**
 * What a schedule is generated for. Immutable.
 *
 * @param nodes Redis nodes
 * @param clients lock clients
 * @param ttlMillis the lease TTL
 * @param maxLeaseTtlMillis the maximum lease TTL (the wait before a wiped node is re-admitted)
 * @param nodeTimeoutMillis the clients' per-node timeout (latency above it makes calls fail)
 */
public record Topology(
    int nodes, int clients, long ttlMillis, long maxLeaseTtlMillis, long nodeTimeoutMillis) {
  public Topology {
    if (nodes < 3 || clients < 1) {
      throw new IllegalArgumentException("need at least 3 nodes and 1 client");
    }
  }

  /** A topology with the standard 200 ms node timeout. */
  public Topology(int nodes, int clients, long ttlMillis, long maxLeaseTtlMillis) {
    this(nodes, clients, ttlMillis, maxLeaseTtlMillis, 200);
  }

  /** The largest number of nodes that may fail with a quorum left. */
  public int minority() {
    return (nodes - 1) / 2;
  }

  /** The quorum. */
  public int majority() {
    return nodes / 2 + 1;
  }
}
