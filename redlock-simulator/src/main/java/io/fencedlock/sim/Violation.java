package io.fencedlock.sim;

/**
 * An invariant that failed, when, and what was seen.
 *
 * @param time simulated nanoseconds since the schedule started
 */
public record Violation(Kind kind, long time, String detail) {

  /** The invariants, and which of Redlock's assumptions each relies on. */
  public enum Kind {
    /** A lease's token is not above a token granted before its acquire began. */
    TOKEN_ORDER(false, false),
    /** Two leases of one resource share a token. */
    TOKEN_DUPLICATE(false, false),
    /** Two clients hold leases on one resource that both report valid. */
    LEASE_OVERLAP(true, true),
    /** A valid lease reports more validity than a quorum of nodes still holds its key for. */
    LEASE_UNPROTECTED(false, true),
    /** A public call took longer than its own bound (maxWait plus timeouts). */
    CALL_UNBOUNDED(false, false),
    /** A public call's future is still pending when the schedule ends. */
    PENDING_AT_END(false, false),
    /** A lock key is still on a node after healing and every TTL has passed. */
    STALE_KEY(false, false),
    /** A key a client created is held by nobody and was never released there. */
    ORPHAN_KEY(false, false),
    /** After healing, an acquire did not succeed. */
    FINAL_ACQUIRE_FAILED(false, false),
    /**
     * An owner's lock key was created twice on one node (re-created after it expired or was
     * deleted).
     */
    KEY_RECREATED(false, false),
    /** A held lease's key was deleted before its holder released it. */
    HELD_KEY_DELETED(false, false),
    /**
     * Work under {@code withLockAsync} ran on, never told (its stage not cancelled), while its
     * lease was no longer valid: the renewal stopped without a loss signal (its client closed).
     */
    WORK_UNPROTECTED(true, false),
    /**
     * A client's metrics sink that throws changed what the clients did: the schedule's trace
     * differs from its run with a sink that does not throw.
     */
    CALLBACK_CHANGED_OUTCOME(false, false),
    /**
     * A node that came back without its memory was re-admitted sooner than maxLeaseTtl after that:
     * a lease it forgot may still be valid, and the node can now help a rival to a quorum.
     */
    READMITTED_TOO_SOON(false, false),
    /** Code threw where it never should (the simulator's or the algorithm's). */
    BUG(false, false);

    private final boolean needsNoLongPause;
    private final boolean needsNoClockStep;

    Kind(boolean needsNoLongPause, boolean needsNoClockStep) {
      this.needsNoLongPause = needsNoLongPause;
      this.needsNoClockStep = needsNoClockStep;
    }

    /** Whether this invariant is promised in a schedule that broke {@code assumptions}. */
    public boolean promisedUnder(Assumptions assumptions) {
      return !(needsNoLongPause && assumptions.clientPausedPastValidity())
          && !(needsNoClockStep && assumptions.clockSteppedBeyondDrift());
    }
  }

  @Override
  public String toString() {
    return String.format("%s at %.3f ms: %s", kind, time / 1e6, detail);
  }
}
