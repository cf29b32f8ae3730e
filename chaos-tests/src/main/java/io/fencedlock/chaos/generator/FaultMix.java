package io.fencedlock.chaos.generator;

/** Which faults a generated schedule draws from. */
public enum FaultMix {
  /**
   * One fault at a time, each touching at most a minority of nodes: partitions, latency, blackhole,
   * reset_peer, pauses, kills.
   */
  MINORITY,
  /**
   * Client processes paused (SIGSTOP, longer than the TTL) at once or at a targeted point where a
   * stale write follows: the canary must lose updates, the fenced store must reject them.
   */
  CLIENT_PAUSE,
  /** Client processes paused or killed, at once or at every targeted point. */
  CLIENT_PROCESS,
  /**
   * Kleppmann's split with clock steps forward on the shared node (and at most one more), then
   * back.
   */
  CLOCK_STEP,
  /** Kleppmann's split with the shared node's clock strobing back and forth. */
  CLOCK_STROBE,
  /**
   * A majority restarted without persistence and rejoining at once, while the other nodes are cut
   * off.
   */
  AMNESIA,
  /** A majority of nodes killed, paused or cut off for a while. */
  MAJORITY_DOWN,
  /**
   * The storage service killed (restarted at once or later), paused, cut off from some clients or
   * slowed past their timeout, with holders paused across its crashes.
   */
  STORAGE,
  /** The storage service restarted with its database deleted (negative control). */
  STORAGE_WIPE,
  /** Nodes of {@code appendfsync everysec} losing power: the last second of their AOF is cut. */
  POWER_LOSS,
  /**
   * The clients' wall clocks stepped back a day, then single nodes wiped and re-admitted: the
   * re-admission epoch must come from the high-water mark.
   */
  READMISSION,
  /**
   * Toxics one at a time on a minority: latency above the node timeout, one-way blackholes,
   * toxicity below 1, bandwidth, slicer.
   */
  NETWORK,
  /**
   * Jepsen's combined packages: network, node, client and storage faults on timelines of their own,
   * overlapping each other.
   */
  COMBINED;

  /**
   * The fewest episodes a schedule of this mix needs to show what it is for: re-admission's first
   * episode steps the clocks back and wipes a node that rejoins while the run is still warming up
   * (a single-episode schedule saw no re-admission), so it needs a second.
   */
  public int minimumEpisodes() {
    return this == READMISSION ? 2 : 1;
  }
}
