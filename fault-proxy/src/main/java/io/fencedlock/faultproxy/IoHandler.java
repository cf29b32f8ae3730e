package io.fencedlock.faultproxy;

/**
 * The attachment of a selection key: reacts when its channel is ready. Implementations are confined
 * to the I/O loop thread.
 */
interface IoHandler {

  /** The channel is ready for at least one of its interest operations. */
  void onReady();

  /** {@link #onReady()} threw; release whatever this handler owns. */
  void onFailure(RuntimeException failure);
}
