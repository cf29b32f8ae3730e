package io.fencedlock.storage.store;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Creates the objects table if absent, and refuses one that exists with other column types. {@code
 * CREATE TABLE IF NOT EXISTS} leaves an existing table as it is, and a table made by hand or by
 * another program (a text token compares as text: "9" > "10") would run the accept rule wrongly
 * without any error. Stateless.
 */
final class ObjectsTable {
  private ObjectsTable() {}

  /**
   * Creates or checks the table inside the caller's transaction.
   *
   * @throws StoreException naming each missing column or wrong type
   */
  static void createOrVerify(Connection connection, Dialect dialect) throws SQLException {
    Map<String, String> found = new HashMap<>();
    try (Statement statement = connection.createStatement()) {
      statement.execute(dialect.createTableSql());
      try (ResultSet rows = statement.executeQuery(dialect.columnTypesSql())) {
        while (rows.next()) {
          found.put(lower(rows.getString(1)), lower(rows.getString(2)));
        }
      }
    }
    List<String> problems = new ArrayList<>();
    dialect
        .columns()
        .forEach(
            (column, type) -> {
              String actual = found.get(column);
              if (actual == null) {
                problems.add("column " + column + " is missing (want " + type + ")");
              } else if (!actual.equals(type)) {
                problems.add("column " + column + " is " + actual + ", want " + type);
              }
            });
    if (!problems.isEmpty()) {
      throw new StoreException(
          "the existing table objects does not have the expected schema: "
              + String.join("; ", problems)
              + ". Refusing to start; migrate or drop it, or point the service at another"
              + " database.");
    }
  }

  private static String lower(String s) {
    return s == null ? "" : s.toLowerCase(Locale.ROOT);
  }
}
