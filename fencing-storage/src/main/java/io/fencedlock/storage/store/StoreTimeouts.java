package io.fencedlock.storage.store;

import java.time.Duration;
import java.util.Objects;

/**
 * How long a store call may wait before it gives up, in each place it can wait. Every bound here
 * fails a call before anything is committed, so its {@link StoreException} says {@link
 * StoreException#changedNothing() nothing changed}.
 *
 * @param acquire how long a call waits for a free database connection
 * @param lock PostgreSQL's {@code lock_timeout}: how long one statement waits for a lock (a row or
 *     table another session holds)
 * @param statement PostgreSQL's {@code statement_timeout}: how long one statement may run, lock
 *     waits included
 */
public record StoreTimeouts(Duration acquire, Duration lock, Duration statement) {
  // Before DEFAULTS: the constructor reads it while the class initializes.
  private static final Duration MAX = Duration.ofHours(1);

  /**
   * The defaults: 3 s for a connection, 2 s for a lock, 5 s for a statement. With the service's
   * default 3 s queue timeout, a write is answered within the client's default 10 s request timeout
   * unless the database is slow to commit.
   */
  public static final StoreTimeouts DEFAULTS =
      new StoreTimeouts(Duration.ofSeconds(3), Duration.ofSeconds(2), Duration.ofSeconds(5));

  /**
   * @throws IllegalArgumentException unless each is at least a millisecond (PostgreSQL's unit) and
   *     at most an hour
   */
  public StoreTimeouts {
    requireValid(acquire, "acquire");
    requireValid(lock, "lock");
    requireValid(statement, "statement");
  }

  private static void requireValid(Duration timeout, String name) {
    Objects.requireNonNull(timeout, name);
    if (timeout.toMillis() < 1 || timeout.compareTo(MAX) > 0) {
      throw new IllegalArgumentException(
          name + " timeout must be from 1 ms to 1 hour, was " + timeout);
    }
  }
}
