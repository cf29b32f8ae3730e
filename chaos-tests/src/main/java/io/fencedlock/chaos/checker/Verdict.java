package io.fencedlock.chaos.checker;

/**
 * A checker's answer, ordered from best to worst: composition keeps the worst (false > unknown >
 * true).
 */
public enum Verdict {
  TRUE,
  UNKNOWN,
  FALSE;

  /** The worse of the two. */
  public Verdict worst(Verdict other) {
    return compareTo(other) >= 0 ? this : other;
  }
}
