package io.fencedlock.storage.store;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.sqlite.SQLiteConfig;

/**
 * What differs between the supported databases: how to connect, the blob column type and how many
 * connections to use. The fenced upsert itself is the same SQL on both. Stateless and thread-safe.
 */
enum Dialect {
  SQLITE("blob", 1) {
    @Override
    Connection connect(String jdbcUrl, StoreTimeouts timeouts) throws SQLException {
      SQLiteConfig config = new SQLiteConfig();
      // WAL + FULL: a commit is fsynced before it returns, so an acknowledged write survives
      // a crash of the process and of the machine.
      config.setJournalMode(SQLiteConfig.JournalMode.WAL);
      config.setSynchronous(SQLiteConfig.SynchronousMode.FULL);
      config.setBusyTimeout(BUSY_TIMEOUT_MILLIS);
      // Take the write lock at BEGIN, so a transaction never has to upgrade a read lock
      // (an upgrade can fail at once with SQLITE_BUSY instead of waiting).
      config.setTransactionMode(SQLiteConfig.TransactionMode.IMMEDIATE);
      return DriverManager.getConnection(jdbcUrl, config.toProperties());
    }

    @Override
    boolean gaveUp(SQLException e) {
      // The driver begins the next transaction inside commit(), so SQLITE_BUSY can come from a
      // commit that succeeded; it is not told apart here.
      return false;
    }
  },
  POSTGRESQL("bytea", 8) {
    @Override
    Connection connect(String jdbcUrl, StoreTimeouts timeouts) throws SQLException {
      Connection connection = DriverManager.getConnection(jdbcUrl);
      try (Statement statement = connection.createStatement()) {
        // Per session, so that a server, database or role configured otherwise cannot weaken
        // them: with synchronous_commit off, a commit returns before its WAL is flushed and an
        // acknowledged write can be lost in a crash.
        statement.execute("SET synchronous_commit = on");
        // Bound how long a store thread can wait for a row lock or on a statement; the database
        // then cancels the statement and the transaction is rolled back.
        statement.execute("SET lock_timeout = " + timeouts.lock().toMillis());
        statement.execute("SET statement_timeout = " + timeouts.statement().toMillis());
      } catch (SQLException e) {
        connection.close();
        throw e;
      }
      return connection;
    }

    @Override
    boolean gaveUp(SQLException e) {
      return LOCK_NOT_AVAILABLE.equals(e.getSQLState()) || QUERY_CANCELED.equals(e.getSQLState());
    }
  };

  /** SQLSTATE of a statement cancelled by {@code statement_timeout} (or a cancel request). */
  private static final String QUERY_CANCELED = "57014";

  /** SQLSTATE of a lock wait cut off by {@code lock_timeout}. */
  private static final String LOCK_NOT_AVAILABLE = "55P03";

  private static final int BUSY_TIMEOUT_MILLIS = 10_000;

  private final String blobType;
  private final int maxConnections;

  Dialect(String blobType, int maxConnections) {
    this.blobType = blobType;
    this.maxConnections = maxConnections;
  }

  /**
   * Picks the dialect for a JDBC URL.
   *
   * @throws IllegalArgumentException for any other database
   */
  static Dialect forUrl(String jdbcUrl) {
    String url = jdbcUrl.toLowerCase(Locale.ROOT);
    if (url.startsWith("jdbc:sqlite:")) {
      return SQLITE;
    }
    if (url.startsWith("jdbc:postgresql:")) {
      return POSTGRESQL;
    }
    throw new IllegalArgumentException(
        "unsupported database URL (want jdbc:sqlite: or jdbc:postgresql:): " + jdbcUrl);
  }

  /** Opens a connection configured for durability and the timeouts, with auto-commit still on. */
  abstract Connection connect(String jdbcUrl, StoreTimeouts timeouts) throws SQLException;

  /**
   * Whether {@code e}, thrown by a statement inside a transaction, is the database giving up on it
   * (a lock or statement timeout): the statement was cancelled and nothing of it stays.
   */
  abstract boolean gaveUp(SQLException e);

  /**
   * How many connections to open. SQLite serialises writers anyway; one connection avoids
   * SQLITE_BUSY between our own connections entirely.
   */
  int maxConnections() {
    return maxConnections;
  }

  /**
   * The objects table's columns and their types, as this dialect declares them and as it reads them
   * back from the catalog (lower case); {@code value} is NULL for an object only fenced.
   */
  Map<String, String> columns() {
    Map<String, String> columns = new LinkedHashMap<>();
    columns.put("id", "text");
    columns.put("value", blobType);
    columns.put("token", "bigint");
    columns.put("owner", "text");
    return columns;
  }

  /**
   * A query for the name and declared type of each column of the objects table that the store's
   * statements use (the one the search path finds, on PostgreSQL).
   */
  String columnTypesSql() {
    return this == SQLITE
        ? "SELECT name, type FROM pragma_table_info('objects')"
        : "SELECT attname, format_type(atttypid, atttypmod) FROM pg_attribute"
            + " WHERE attrelid = 'objects'::regclass AND attnum > 0 AND NOT attisdropped";
  }

  /** DDL for the objects table. */
  String createTableSql() {
    return "CREATE TABLE IF NOT EXISTS objects ("
        + "id TEXT PRIMARY KEY, "
        + "value "
        + blobType.toUpperCase(Locale.ROOT)
        + ", "
        + "token BIGINT NOT NULL, "
        + "owner TEXT NOT NULL)";
  }
}
