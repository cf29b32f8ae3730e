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
  /** A client stalls between acquiring and writing (a modelled GC pause). */
  PAUSE,
  /** The final read of the fenced object and the canary after the run. */
  READ,
  /** The nemesis starts a fault. */
  FAULT_START,
  /** The nemesis heals a fault. */
  FAULT_STOP
}
