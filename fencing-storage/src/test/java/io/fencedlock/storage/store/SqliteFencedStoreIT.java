package io.fencedlock.storage.store;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** {@link FencedStoreContract} on an SQLite file. */
final class SqliteFencedStoreIT extends FencedStoreContract {
  @TempDir Path dir;

  @Override
  String newDatabaseUrl() {
    return "jdbc:sqlite:" + dir.resolve("store.db");
  }
}
