package io.fencedlock.testkit;

/**
 * A redis-server process did not come up: it exited, or it did not answer {@code PING} in time.
 *
 * <p>The message contains the command line and the tail of the node's {@code redis.log}, which is
 * where redis explains itself (bad config option, port in use, corrupt AOF, ...). The process has
 * already been killed when this is thrown.
 *
 * <p>Thread-safety: immutable after construction.
 */
public final class RedisStartupException extends RuntimeException {
  /**
   * @param message what went wrong, including command line and log tail
   */
  public RedisStartupException(String message) {
    super(message);
  }

  /**
   * @param message what went wrong, including command line and log tail
   * @param cause the underlying failure
   */
  public RedisStartupException(String message, Throwable cause) {
    super(message, cause);
  }
}
