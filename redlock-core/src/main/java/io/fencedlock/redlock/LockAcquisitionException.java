package io.fencedlock.redlock;

import java.util.List;

/**
 * Thrown when a lock could not be acquired: no quorum of nodes granted it within the wait, or the
 * time left after acquiring was not positive. Carries the last attempt's per-node outcomes; node
 * failures (errors, not refusals) are attached as suppressed exceptions.
 */
public class LockAcquisitionException extends RedlockException {
  private static final long serialVersionUID = 1L;

  private final String resource;
  private final int attempts;
  private final transient List<NodeOutcome> outcomes;

  public LockAcquisitionException(
      String resource, int attempts, String reason, List<NodeOutcome> outcomes) {
    super(describe(resource, attempts, reason, outcomes));
    this.resource = resource;
    this.attempts = attempts;
    this.outcomes = List.copyOf(outcomes);
  }

  /** The resource that could not be locked. */
  public String resource() {
    return resource;
  }

  /** How many attempts were made before giving up. */
  public int attempts() {
    return attempts;
  }

  /** Each node's outcome in the last attempt, in the configured node order. */
  public List<NodeOutcome> outcomes() {
    return outcomes;
  }

  private static String describe(
      String resource, int attempts, String reason, List<NodeOutcome> outcomes) {
    return "could not acquire "
        + ResourceNames.quoted(resource)
        + " after "
        + attempts
        + (attempts == 1 ? " attempt: " : " attempts: ")
        + reason
        + " "
        + outcomes;
  }
}
