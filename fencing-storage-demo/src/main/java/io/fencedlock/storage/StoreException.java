package io.fencedlock.storage;

/**
 * The database failed or could not be reached. The outcome of the write that saw it is unknown.
 * Unchecked.
 */
public final class StoreException extends RuntimeException {
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
