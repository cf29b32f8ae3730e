package io.fencedlock.storage.store;

import io.fencedlock.storage.FencedStoreException;

/**
 * The database failed or could not be reached. The outcome of the write that saw it is unknown.
 * Unchecked; a {@link FencedStoreException}.
 */
public final class StoreException extends FencedStoreException {
  private static final long serialVersionUID = 1L;

  /** Creates an exception with a message and the underlying cause. */
  public StoreException(String message, Throwable cause) {
    super(message, cause);
  }

  /** Creates an exception with a message. */
  public StoreException(String message) {
    super(message);
  }
}
