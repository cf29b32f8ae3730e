package io.fencedlock.storage.store;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Locale;
import org.sqlite.SQLiteConfig;

/**
 * What differs between the supported databases: how to connect, the blob column type and how many
 * connections to use. The fenced upsert itself is the same SQL on both. Stateless and thread-safe.
 */
enum Dialect {
  SQLITE("BLOB", 1) {
    @Override
    Connection connect(String jdbcUrl) throws SQLException {
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
  },
  POSTGRESQL("BYTEA", 8) {
    @Override
    Connection connect(String jdbcUrl) throws SQLException {
      // Defaults are what we need: fsync on, synchronous_commit on, READ COMMITTED.
      return DriverManager.getConnection(jdbcUrl);
    }
  };

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

  /** Opens a connection configured for durability, with auto-commit still on. */
  abstract Connection connect(String jdbcUrl) throws SQLException;

  /**
   * How many connections to open. SQLite serialises writers anyway; one connection avoids
   * SQLITE_BUSY between our own connections entirely.
   */
  int maxConnections() {
    return maxConnections;
  }

  /** DDL for the objects table; {@code value} is NULL for an object that was only fenced. */
  String createTableSql() {
    return "CREATE TABLE IF NOT EXISTS objects ("
        + "id TEXT PRIMARY KEY, "
        + "value "
        + blobType
        + ", "
        + "token BIGINT NOT NULL, "
        + "owner TEXT NOT NULL)";
  }
}
