package io.fencedlock.storage.service;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** {@link StorageServiceContract} on an SQLite file. */
final class SqliteStorageServiceIT extends StorageServiceContract {
  @TempDir Path dir;

  @Override
  String newDatabaseUrl() {
    return "jdbc:sqlite:" + dir.resolve("service.db");
  }
}
