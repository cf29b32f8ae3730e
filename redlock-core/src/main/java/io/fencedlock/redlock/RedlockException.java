package io.fencedlock.redlock;

/** The root of every exception this library throws on purpose. Unchecked. */
public class RedlockException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public RedlockException(String message) {
    super(message);
  }

  public RedlockException(String message, Throwable cause) {
    super(message, cause);
  }
}
