package io.fencedlock.storage.store;

import io.fencedlock.storage.FencedStoreException;

/**
 * The database failed or could not be reached. The outcome of the write that saw it is unknown,
 * unless {@link #changedNothing()} says that the call gave up before anything could be committed.
 * Unchecked; a {@link FencedStoreException}.
 */
public final class StoreException extends FencedStoreException {
  private static final long serialVersionUID = 1L;

  private final boolean changedNothing;

  /** Creates an exception with a message and the underlying cause; the outcome is unknown. */
  public StoreException(String message, Throwable cause) {
    this(message, cause, false);
  }

  /** Creates an exception with a message; the outcome is unknown. */
  public StoreException(String message) {
    this(message, null, false);
  }

  private StoreException(String message, Throwable cause, boolean changedNothing) {
    super(message, cause);
    this.changedNothing = changedNothing;
  }

  /**
   * An exception for a call that certainly changed nothing: it never got a connection, or its
   * transaction failed before its commit was sent and was rolled back.
   */
  static StoreException nothingChanged(String message, Throwable cause) {
    return new StoreException(message + "; nothing was changed", cause, true);
  }

  /**
   * Whether it is certain that the call changed nothing, so that retrying it is safe. False means
   * unknown: a write may or may not have been committed.
   */
  public boolean changedNothing() {
    return changedNothing;
  }
}
