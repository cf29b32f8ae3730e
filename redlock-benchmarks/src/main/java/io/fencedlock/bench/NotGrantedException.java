package io.fencedlock.bench;

/** A lock system did not grant a lock: counted as an error by the scenario, never hidden. */
final class NotGrantedException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  NotGrantedException(String message) {
    super(message);
  }

  NotGrantedException(String message, Throwable cause) {
    super(message, cause);
  }
}
