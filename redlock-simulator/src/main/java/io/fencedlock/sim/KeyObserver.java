package io.fencedlock.sim;

/**
 * What a simulated node tells the invariants about lock keys, as it changes them. The node model
 * calls it from inside a script, so an observer sees every change in the order it happened.
 */
public interface KeyObserver {

  /** Ignores everything (the differential test). */
  KeyObserver NONE = new KeyObserver() {};

  /** {@code owner}'s lock key was created by a SET NX. */
  default void created(String lockKey, String owner) {}

  /** {@code owner}'s lock key was deleted by a compare-and-delete naming {@code owner}. */
  default void deleted(String lockKey, String owner) {}
}
