package io.fencedlock.storage.service;

import java.nio.file.Path;
import java.util.Locale;

/**
 * The parsed command line of {@link StorageServiceMain}. Immutable.
 *
 * @param port the port, 0 for ephemeral
 * @param database a JDBC URL, or a path to a SQLite file
 */
record MainArgs(int port, String database) {

  /** Where the SQLite file goes when {@code --db} is not given: beside the working directory. */
  static final String DEFAULT_DATABASE = "fencedlock-data/storage.db";

  static final String USAGE =
      "usage: StorageServiceMain [--port N] [--db <jdbc-url | sqlite-file>]\n"
          + "  --port N   TCP port on 127.0.0.1, 0 = ephemeral (default 0)\n"
          + "  --db X     jdbc:sqlite:..., jdbc:postgresql://... or a SQLite file path\n"
          + "             (default "
          + DEFAULT_DATABASE
          + ")";

  /**
   * Parses the arguments.
   *
   * @throws IllegalArgumentException for an unknown option, a missing value or a bad port
   */
  static MainArgs parse(String... args) {
    int port = StorageConfig.DEFAULT_PORT;
    String database = DEFAULT_DATABASE;
    for (int i = 0; i < args.length; i += 2) {
      String option = args[i];
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException("missing value for " + option);
      }
      String value = args[i + 1];
      switch (option) {
        case "--port":
          port = parsePort(value);
          break;
        case "--db":
          database = value;
          break;
        default:
          throw new IllegalArgumentException("unknown option " + option);
      }
    }
    return new MainArgs(port, database);
  }

  /** Returns the database as a JDBC URL; a bare path becomes {@code jdbc:sqlite:<abs path>}. */
  String jdbcUrl() {
    if (database.toLowerCase(Locale.ROOT).startsWith("jdbc:")) {
      return database;
    }
    return "jdbc:sqlite:" + sqliteFile().toString();
  }

  /** The SQLite file if {@code database} is a path, whose directory the caller must create. */
  Path sqliteFile() {
    return Path.of(database).toAbsolutePath();
  }

  /** Whether {@code database} names a file rather than a JDBC URL. */
  boolean isFilePath() {
    return !database.toLowerCase(Locale.ROOT).startsWith("jdbc:");
  }

  private static int parsePort(String value) {
    try {
      int port = Integer.parseInt(value);
      if (port >= 0 && port <= 65_535) {
        return port;
      }
    } catch (NumberFormatException e) {
      // Reported below with the same message as an out-of-range port.
    }
    throw new IllegalArgumentException("--port must be 0-65535 but was " + value);
  }
}
