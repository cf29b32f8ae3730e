package io.fencedlock.chaos.checker;

/**
 * An interval during which a process believed it held the lock. Immutable.
 *
 * @param process the holder
 * @param token its fencing token
 * @param startNanos when its acquire returned
 * @param endNanos when it began releasing or its validity ran out, whichever came first
 */
public record Hold(int process, long token, long startNanos, long endNanos) {

  /** Whether two holds overlap in time. */
  public boolean overlaps(Hold other) {
    return startNanos < other.endNanos && other.startNanos < endNanos;
  }
}
