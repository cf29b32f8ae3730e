package io.fencedlock.testkit;

/**
 * Redis answered a command with an error reply ({@code -ERR ...}, {@code -WRONGTYPE ...}).
 *
 * <p>The message is the error text as sent by the server, without the leading {@code -}.
 *
 * <p>Thread-safety: immutable after construction.
 */
public final class RedisReplyException extends RuntimeException {
  /**
   * @param message the server's error text
   */
  public RedisReplyException(String message) {
    super(message);
  }
}
