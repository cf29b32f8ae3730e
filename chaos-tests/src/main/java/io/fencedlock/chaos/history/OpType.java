package io.fencedlock.chaos.history;

/** Jepsen's operation types. */
public enum OpType {
  /** An operation began. */
  INVOKE,
  /** It completed and took effect. */
  OK,
  /** It completed and certainly did not take effect. */
  FAIL,
  /**
   * Its outcome is unknown (an exception, a timeout, a crash): it may or may not have taken effect.
   */
  INFO
}
