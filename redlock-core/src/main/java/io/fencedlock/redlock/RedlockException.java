package io.fencedlock.redlock;

/**
 * The root of every exception this library throws on purpose. Unchecked.
 *
 * <p>A synchronous call rethrows a failure made on one of the client's own threads as itself, with
 * the caller's stack attached as a suppressed exception, so that a stack trace shows both where it
 * failed and which call it failed.
 */
public class RedlockException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public RedlockException(String message) {
    super(message);
  }

  public RedlockException(String message, Throwable cause) {
    super(message, cause);
  }
}
