package io.fencedlock.storage.store;

import io.fencedlock.storage.FencedStore;
import io.fencedlock.storage.StorageProtocol;
import io.fencedlock.storage.StoredObject;
import io.fencedlock.storage.WriteResult;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Objects;
import java.util.Optional;

/**
 * {@link FencedStore} on SQLite (embedded, a file) or PostgreSQL, chosen by the JDBC URL.
 *
 * <h2>Atomicity</h2>
 *
 * The accept rule lives in the {@code WHERE} of an {@code INSERT ... ON CONFLICT DO UPDATE}, so the
 * token check and the write are one statement that the database applies atomically; the number of
 * affected rows (1 or 0) says whether it was accepted. Java never reads the token in order to
 * decide. Only after a rejection does it read the current token and owner, to report them and to
 * tell {@code STALE} from {@code ALARM}. That read runs in the same transaction: on SQLite the
 * transaction holds the database write lock from its start ({@code BEGIN IMMEDIATE}); on PostgreSQL
 * the rejected upsert leaves the conflicting row locked until commit. So the reported token is the
 * one the write was rejected against.
 *
 * <h2>Bounded waits</h2>
 *
 * A call waits for a connection, and on PostgreSQL for locks and its statements, at most as long as
 * its {@link StoreTimeouts}; past them it fails with a {@link StoreException} whose {@link
 * StoreException#changedNothing()} is true, since nothing was committed. PostgreSQL sessions also
 * force {@code synchronous_commit = on}, whatever the server's configuration.
 *
 * <p>Thread-safe. Creates the table on open if it is absent, and refuses to open if an existing one
 * has other column types.
 */
public final class JdbcFencedStore implements FencedStore {

  private static final String ACCEPT_RULE =
      " WHERE objects.token < excluded.token"
          + " OR (objects.token = excluded.token AND objects.owner = excluded.owner)";

  private static final String PUT_SQL =
      "INSERT INTO objects(id, value, token, owner) VALUES (?, ?, ?, ?)"
          + " ON CONFLICT(id) DO UPDATE SET"
          + " value = excluded.value, token = excluded.token, owner = excluded.owner"
          + ACCEPT_RULE;

  private static final String FENCE_SQL =
      "INSERT INTO objects(id, value, token, owner) VALUES (?, NULL, ?, ?)"
          + " ON CONFLICT(id) DO UPDATE SET token = excluded.token, owner = excluded.owner"
          + ACCEPT_RULE;

  private static final String GET_SQL =
      "SELECT value, token, owner FROM objects WHERE id = ? AND value IS NOT NULL";

  private static final String HIGH_WATER_SQL = "SELECT token, owner FROM objects WHERE id = ?";

  private final ConnectionPool pool;

  private JdbcFencedStore(ConnectionPool pool) {
    this.pool = pool;
  }

  /**
   * Checks that {@code jdbcUrl} names a supported database, without connecting.
   *
   * @throws IllegalArgumentException unless a {@code jdbc:sqlite:} or {@code jdbc:postgresql:} URL
   */
  public static void requireSupportedUrl(String jdbcUrl) {
    Dialect.forUrl(Objects.requireNonNull(jdbcUrl, "jdbcUrl"));
  }

  /**
   * Opens a store with {@link StoreTimeouts#DEFAULTS}; see {@link #open(String, StoreTimeouts)}.
   */
  public static JdbcFencedStore open(String jdbcUrl) {
    return open(jdbcUrl, StoreTimeouts.DEFAULTS);
  }

  /**
   * Opens a store and creates its table if absent, or checks that the existing table has the
   * expected column types. For SQLite the file's directory must exist.
   *
   * @param jdbcUrl {@code jdbc:sqlite:<file>} or {@code jdbc:postgresql://...}
   * @param timeouts how long a call may wait for a connection, a lock or a statement
   * @throws IllegalArgumentException for another kind of URL
   * @throws StoreException if the database cannot be reached, the table cannot be created, or an
   *     existing table has other column types
   */
  public static JdbcFencedStore open(String jdbcUrl, StoreTimeouts timeouts) {
    Objects.requireNonNull(jdbcUrl, "jdbcUrl");
    Objects.requireNonNull(timeouts, "timeouts");
    Dialect dialect = Dialect.forUrl(jdbcUrl);
    ConnectionPool pool = new ConnectionPool(dialect, jdbcUrl, timeouts);
    try {
      pool.inTransaction(
          connection -> {
            ObjectsTable.createOrVerify(connection, dialect);
            return null;
          });
    } catch (RuntimeException e) {
      pool.close();
      throw e;
    }
    return new JdbcFencedStore(pool);
  }

  @Override
  public WriteResult put(String key, byte[] value, long token, String owner) {
    validate(key, token, owner);
    Objects.requireNonNull(value, "value");
    if (value.length > StorageProtocol.MAX_VALUE_BYTES) {
      throw new IllegalArgumentException("value larger than " + StorageProtocol.MAX_VALUE_BYTES);
    }
    return conditionalWrite(
        PUT_SQL,
        key,
        token,
        owner,
        statement -> {
          statement.setString(1, key);
          statement.setBytes(2, value);
          statement.setLong(3, token);
          statement.setString(4, owner);
        });
  }

  @Override
  public WriteResult fence(String key, long token, String owner) {
    validate(key, token, owner);
    return conditionalWrite(
        FENCE_SQL,
        key,
        token,
        owner,
        statement -> {
          statement.setString(1, key);
          statement.setLong(2, token);
          statement.setString(3, owner);
        });
  }

  @Override
  public Optional<StoredObject> get(String key) {
    StorageProtocol.requireValidKey(key);
    return pool.inTransaction(
        connection -> {
          try (PreparedStatement statement = connection.prepareStatement(GET_SQL)) {
            statement.setString(1, key);
            try (ResultSet row = statement.executeQuery()) {
              if (!row.next()) {
                return Optional.empty();
              }
              return Optional.of(
                  new StoredObject(row.getBytes(1), row.getLong(2), row.getString(3)));
            }
          }
        });
  }

  @Override
  public boolean isHealthy() {
    try {
      return pool.inTransaction(
          connection -> {
            try (Statement statement = connection.createStatement()) {
              return statement.execute("SELECT 1");
            }
          });
    } catch (StoreException e) {
      // Health is a probe: a failing database is reported as unhealthy, not thrown.
      return false;
    }
  }

  @Override
  public void close() {
    pool.close();
  }

  @FunctionalInterface
  private interface Binder {
    void bind(PreparedStatement statement) throws SQLException;
  }

  private WriteResult conditionalWrite(
      String sql, String key, long token, String owner, Binder binder) {
    return pool.inTransaction(
        connection -> {
          int rows;
          try (PreparedStatement statement = connection.prepareStatement(sql)) {
            binder.bind(statement);
            rows = statement.executeUpdate();
          }
          return rows == 1
              ? new WriteResult.Accepted(token)
              : rejection(connection, key, token, owner);
        });
  }

  private static WriteResult rejection(Connection connection, String key, long token, String owner)
      throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(HIGH_WATER_SQL)) {
      statement.setString(1, key);
      try (ResultSet row = statement.executeQuery()) {
        if (!row.next()) {
          throw new SQLException("upsert of " + key + " changed nothing yet the row is missing");
        }
        long current = row.getLong(1);
        if (current > token) {
          return new WriteResult.Rejected(current, WriteResult.Reason.STALE);
        }
        if (current == token && !owner.equals(row.getString(2))) {
          // Tokens are unique per grant, so only a broken lock produces this.
          return new WriteResult.Rejected(current, WriteResult.Reason.ALARM);
        }
        throw new SQLException(
            "upsert of " + key + " with token " + token + " was refused, yet it is acceptable");
      }
    }
  }

  private static void validate(String key, long token, String owner) {
    StorageProtocol.requireValidKey(key);
    StorageProtocol.requireValidToken(token);
    StorageProtocol.requireValidOwner(owner);
  }
}
