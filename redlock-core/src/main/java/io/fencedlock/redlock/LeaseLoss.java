package io.fencedlock.redlock;

import java.time.Duration;
import java.util.List;

/**
 * Why a lease was lost before it was released, and what the nodes answered last.
 *
 * @param reason what ended the lease
 * @param detail a human-readable explanation
 * @param outcomes each node's outcome in the last extend that failed, in configuration order: the
 *     one that found the lock no longer held, or the last failed renewal (empty if none had
 *     answered, as when the renewal limit is reached or no renewal had been tried)
 * @param validityLeft how much of the lease's validity was left when the loss was declared: the
 *     time the holder still had to stop its work (zero if the holder itself was paused past it)
 */
public record LeaseLoss(
    Reason reason, String detail, List<NodeOutcome> outcomes, Duration validityLeft) {

  public LeaseLoss {
    outcomes = List.copyOf(outcomes);
  }

  /** What ended a lease. */
  public enum Reason {
    /**
     * Renewal could not get a quorum to confirm before the validity would run out (nodes down,
     * paused or cut off, or too slow): the signal fires while some validity is left.
     */
    RENEWAL_FAILED,
    /** More nodes than a quorum can spare answered that the lock is no longer this lease's. */
    NO_LONGER_HELD,
    /** The renewal policy's cap (total hold time or number of renewals) was reached. */
    RENEWAL_LIMIT,
    /**
     * The validity ran out before the holder could be told: this process itself was paused (GC,
     * SIGSTOP, swapping) past the loss deadline. Another client may hold the lock already.
     */
    EXPIRED,
    /**
     * The client was closed while it kept the lease alive: renewal stopped, and closing does not
     * release the lease, so its key runs out with the validity left, time for the holder to stop.
     */
    CLIENT_CLOSED
  }
}
