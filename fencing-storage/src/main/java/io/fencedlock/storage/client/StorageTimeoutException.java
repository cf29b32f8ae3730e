package io.fencedlock.storage.client;

/**
 * A {@link FencedStorageClient} call did not complete within its timeout; the outcome is unknown.
 * Unchecked.
 */
public final class StorageTimeoutException extends StorageClientException {
  private static final long serialVersionUID = 1L;

  /** Creates the exception. */
  public StorageTimeoutException(String message, Throwable cause) {
    super(message, cause);
  }
}
