package io.fencedlock.chaos.generator;

/** Which faults a generated schedule draws from. */
public enum FaultMix {
  /**
   * One fault at a time, each touching at most a minority of nodes: partitions, latency, blackhole,
   * reset_peer, pauses, kills.
   */
  MINORITY,
  /** Holder stalls longer than the TTL. */
  CLIENT_PAUSE,
  /** Kleppmann's split with clock steps forward on the shared node (and at most one more). */
  CLOCK_STEP,
  /**
   * A majority restarted without persistence and rejoining at once, while the other nodes are cut
   * off.
   */
  AMNESIA,
  /** A majority of nodes killed, paused or cut off for a while. */
  MAJORITY_DOWN
}
