package io.fencedlock.redlock.spi;

/**
 * A node's answer to {@link NodeDriver#initialize}.
 *
 * @param outcome what happened
 * @param epoch the node's marker epoch after the call (0 if it has none)
 */
public record InitReply(Outcome outcome, long epoch) {

  /** What an initialization did. */
  public enum Outcome {
    /** This call set the marker (and the high-water mark) to the epoch given. */
    SET,
    /** The node already had a marker; it was kept. */
    ALREADY_INITIALIZED,
    /** Not set: the node's empty incarnation is not the one named in the call. */
    OTHER_INCARNATION
  }
}
