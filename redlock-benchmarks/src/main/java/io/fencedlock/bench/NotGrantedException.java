package io.fencedlock.bench;

/** A lock system did not grant a lock: counted as an error by the scenario, never hidden. */
public final class NotGrantedException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public NotGrantedException(String message) {
    super(message);
  }

  public NotGrantedException(String message, Throwable cause) {
    super(message, cause);
  }
}
