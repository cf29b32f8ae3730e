package io.fencedlock.storage.service;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** {@link OverloadContract} on an SQLite file. */
final class SqliteOverloadIT extends OverloadContract {
  @TempDir Path dir;
  private int databases;

  @Override
  String newDatabaseUrl() {
    return "jdbc:sqlite:" + dir.resolve("overload-" + databases++ + ".db");
  }
}
