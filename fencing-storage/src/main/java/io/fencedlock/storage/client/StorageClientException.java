package io.fencedlock.storage.client;

import io.fencedlock.storage.FencedStoreException;

/**
 * A {@link FencedStorageClient} call failed: the service could not be reached, broke the
 * connection, or answered with a status the call does not expect. For a write or fence the outcome
 * is then unknown unless {@link #statusCode()} is a 4xx. Unchecked; a {@link FencedStoreException}.
 */
public class StorageClientException extends FencedStoreException {
  private static final long serialVersionUID = 1L;

  private final int statusCode;

  /** A transport failure: there is no status code. */
  public StorageClientException(String message, Throwable cause) {
    super(message, cause);
    this.statusCode = -1;
  }

  /** An unexpected HTTP status. */
  public StorageClientException(String message, int statusCode) {
    super(message);
    this.statusCode = statusCode;
  }

  /** The HTTP status, or -1 if no response arrived. */
  public int statusCode() {
    return statusCode;
  }
}
