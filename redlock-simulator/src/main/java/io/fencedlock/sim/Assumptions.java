package io.fencedlock.sim;

/**
 * Which of Redlock's timing assumptions a schedule broke. Mutual exclusion of leases is promised
 * only when a holder never pauses past its validity and no node's clock steps forward by more than
 * the drift allowance; outside them a lease overlap is expected, and counted, not hidden. Tokens,
 * liveness and the key rules are promised always. (Lost memory is no assumption here: the marker
 * and re-admission handle it, and each of the node-side {@link Bug}s that breaks that is a bug,
 * found as one.)
 */
public record Assumptions(boolean clientPausedPastValidity, boolean clockSteppedBeyondDrift) {

  public boolean allHeld() {
    return !clientPausedPastValidity && !clockSteppedBeyondDrift;
  }

  String describe() {
    if (allHeld()) {
      return "within Redlock's assumptions";
    }
    return "outside Redlock's assumptions:"
        + (clientPausedPastValidity ? " a client paused past a lease's validity;" : "")
        + (clockSteppedBeyondDrift
            ? " a node clock stepped forward beyond the drift allowance;"
            : "");
  }
}
