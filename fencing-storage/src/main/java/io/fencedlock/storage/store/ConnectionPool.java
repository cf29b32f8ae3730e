package io.fencedlock.storage.store;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A small fixed-size pool that runs each unit of work in its own transaction on one connection.
 *
 * <p>Connections are opened lazily, up to the dialect's limit. A connection that saw an {@link
 * SQLException} is closed rather than reused, because its state is unknown. Thread-safe.
 *
 * <p>A call that gives up before its commit is sent (no connection free in time, or the database
 * cancelled a statement for a lock or statement timeout) fails with a {@link StoreException} that
 * says nothing changed; a failed commit's outcome is unknown.
 */
final class ConnectionPool implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ConnectionPool.class);

  /** Work done inside one transaction. */
  @FunctionalInterface
  interface SqlWork<T> {
    T run(Connection connection) throws SQLException;
  }

  private final Dialect dialect;
  private final String jdbcUrl;
  private final StoreTimeouts timeouts;
  private final Semaphore permits;
  private final ConcurrentLinkedDeque<Connection> idle = new ConcurrentLinkedDeque<>();
  private volatile boolean closed;

  ConnectionPool(Dialect dialect, String jdbcUrl, StoreTimeouts timeouts) {
    this.dialect = dialect;
    this.jdbcUrl = jdbcUrl;
    this.timeouts = timeouts;
    this.permits = new Semaphore(dialect.maxConnections(), true);
  }

  /**
   * Runs {@code work} in a transaction and commits it; rolls back if it throws.
   *
   * @throws StoreException if the pool is closed, no connection frees up in time, or SQL fails
   */
  <T> T inTransaction(SqlWork<T> work) {
    acquirePermit();
    try {
      Connection connection = idleOrNew();
      boolean reusable = false;
      try {
        T result = runUncommitted(connection, work);
        commit(connection);
        reusable = true;
        return result;
      } finally {
        giveBack(connection, reusable);
      }
    } finally {
      permits.release();
    }
  }

  /**
   * Runs {@code work} without committing; rolls back if it throws. A failure the dialect recognises
   * as the database cancelling a statement (a lock or statement timeout) is reported as changing
   * nothing: the transaction was rolled back and its commit never sent. Other failures keep the
   * conservative "outcome unknown" of a plain {@link StoreException}.
   */
  private <T> T runUncommitted(Connection connection, SqlWork<T> work) {
    try {
      return work.run(connection);
    } catch (SQLException e) {
      rollback(connection, e);
      if (dialect.gaveUp(e)) {
        throw StoreException.nothingChanged("database gave up: " + e.getMessage(), e);
      }
      throw new StoreException("database operation failed: " + e.getMessage(), e);
    }
  }

  /** A failed commit may still have been applied (say, the connection broke after it was sent). */
  private static void commit(Connection connection) {
    try {
      connection.commit();
    } catch (SQLException e) {
      rollback(connection, e);
      throw new StoreException("commit failed, outcome unknown: " + e.getMessage(), e);
    }
  }

  @Override
  public void close() {
    closed = true;
    drainIdle();
  }

  private void acquirePermit() {
    if (closed) {
      throw new StoreException("store is closed");
    }
    Duration acquireTimeout = timeouts.acquire();
    try {
      if (!permits.tryAcquire(acquireTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
        // The call never had a connection, so it cannot have changed anything.
        throw StoreException.nothingChanged(
            "no database connection free within " + acquireTimeout.toMillis() + " ms", null);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw StoreException.nothingChanged("interrupted while waiting for a database connection", e);
    }
  }

  private Connection idleOrNew() {
    Connection connection = idle.pollFirst();
    if (connection != null) {
      return connection;
    }
    try {
      Connection fresh = dialect.connect(jdbcUrl, timeouts);
      fresh.setAutoCommit(false);
      return fresh;
    } catch (SQLException e) {
      throw new StoreException("cannot connect to " + jdbcUrl + ": " + e.getMessage(), e);
    }
  }

  private void giveBack(Connection connection, boolean reusable) {
    if (!reusable) {
      closeQuietly(connection);
      return;
    }
    idle.offerFirst(connection);
    if (closed) {
      // close() may have drained the queue just before we returned this connection.
      drainIdle();
    }
  }

  private void drainIdle() {
    for (Connection c = idle.pollFirst(); c != null; c = idle.pollFirst()) {
      closeQuietly(c);
    }
  }

  private static void rollback(Connection connection, SQLException cause) {
    try {
      connection.rollback();
    } catch (SQLException e) {
      cause.addSuppressed(e);
    }
  }

  private static void closeQuietly(Connection connection) {
    try {
      connection.close();
    } catch (SQLException e) {
      // Nothing more to do with a connection we are discarding; note it for diagnosis.
      log.debug("closing a database connection failed", e);
    }
  }
}
