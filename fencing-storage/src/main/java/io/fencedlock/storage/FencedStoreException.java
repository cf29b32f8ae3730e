package io.fencedlock.storage;

/**
 * A {@link FencedStore} failed or could not be reached, so the outcome of the write or fence that
 * saw it is unknown: {@link io.fencedlock.storage.store.StoreException} when a database fails,
 * {@link io.fencedlock.storage.client.StorageClientException} when the service cannot be reached or
 * answers unexpectedly. A stale token is not a failure: it is a {@link WriteResult.Rejected}.
 * Unchecked.
 */
public class FencedStoreException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Creates an exception with a message and the underlying cause. */
  public FencedStoreException(String message, Throwable cause) {
    super(message, cause);
  }

  /** Creates an exception with a message. */
  public FencedStoreException(String message) {
    super(message);
  }
}
