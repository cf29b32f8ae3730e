package io.fencedlock.storage;

import java.util.Objects;

/**
 * The outcome of a fenced write or fence: either the store accepted the token, or it rejected it
 * and reports the object's highest token at that moment.
 *
 * <p>A rejection is a normal outcome for a holder whose lease has been superseded, so it is a value
 * and not an exception. Immutable and thread-safe.
 */
public sealed interface WriteResult permits WriteResult.Accepted, WriteResult.Rejected {

  /** Why a write was rejected. */
  enum Reason {
    /** The token is lower than the object's highest token: the writer's lease was superseded. */
    STALE,
    /**
     * The token equals the object's highest token but the owner differs. Tokens are unique per
     * grant, so this contradicts the lock's guarantees and is counted as an alarm.
     */
    ALARM
  }

  /** Returns {@code true} for {@link Accepted}. */
  default boolean isAccepted() {
    return this instanceof Accepted;
  }

  /**
   * The store applied the write (or fence); {@code token} is now the object's highest token.
   *
   * @param token the token that was stored
   */
  record Accepted(long token) implements WriteResult {}

  /**
   * The store applied nothing.
   *
   * @param currentToken the object's highest token when the write was rejected
   * @param reason why it was rejected
   */
  record Rejected(long currentToken, Reason reason) implements WriteResult {
    /** Validates the components. */
    public Rejected {
      Objects.requireNonNull(reason, "reason");
    }
  }
}
