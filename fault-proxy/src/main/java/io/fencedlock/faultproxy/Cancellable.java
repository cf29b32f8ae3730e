package io.fencedlock.faultproxy;

/** A scheduled action that can still be called off. Confined to the I/O loop thread. */
interface Cancellable {

  /** Stops the action from running; does nothing if it already ran or was cancelled. */
  void cancel();
}
