package io.fencedlock.chaos.history;

/** What an operation does (Jepsen's {@code :f}). */
public enum Fn {
  /** A client acquires the lock. OK value: token, owner, validityNanos. */
  ACQUIRE,
  /** A client's read-modify-write of the fenced object (fence, read, put) with its token. */
  WRITE,
  /** The same read-modify-write on the unfenced canary register. */
  CANARY,
  /** A client releases its lease. OK value: wasValid. */
  RELEASE,
  /** A client extends its lease. OK value: extended, validUntil. */
  EXTEND,
  /** The final read of the fenced object and the canary after the run. */
  READ,
  /** The nemesis starts a fault. */
  FAULT_START,
  /** The nemesis heals a fault. */
  FAULT_STOP,
  /**
   * The nemesis signals a client process at a point the client reached (a targeted pause or kill),
   * recorded by the {@link Op#TRIGGER} process.
   */
  SIGNAL,
  /**
   * Something a client or the harness saw without asking: a node call that failed, a node
   * re-admitted with its epoch, a storage object's token after a restart. Recorded by the {@link
   * Op#OBSERVER} process as an invocation and its completion, back to back.
   */
  OBSERVE
}
