package io.fencedlock.storage.service;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Holds PostgreSQL's lock on the objects table from a second connection, so that the service's
 * writes wait and its queue fills: a real way to make the store slow. Reads are not blocked.
 * Release by closing. Not thread-safe.
 *
 * <p>Not for SQLite: the service's single connection takes SQLite's write lock again as soon as it
 * commits (the driver begins the next transaction at once, and the store begins them IMMEDIATE), so
 * no second connection ever gets it while the service runs.
 */
final class DatabaseLock implements AutoCloseable {
  private final Connection connection;

  private DatabaseLock(Connection connection) {
    this.connection = connection;
  }

  /** Takes the lock on the PostgreSQL database of {@code jdbcUrl}; its objects table must exist. */
  static DatabaseLock hold(String jdbcUrl) throws SQLException {
    Connection connection = DriverManager.getConnection(jdbcUrl);
    try (Statement statement = connection.createStatement()) {
      connection.setAutoCommit(false);
      statement.execute("LOCK TABLE objects IN EXCLUSIVE MODE"); // conflicts with INSERT, UPDATE
    } catch (SQLException e) {
      connection.close();
      throw e;
    }
    return new DatabaseLock(connection);
  }

  @Override
  public void close() throws SQLException {
    try (connection;
        Statement statement = connection.createStatement()) {
      statement.execute("ROLLBACK");
    }
  }
}
