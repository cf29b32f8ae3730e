package io.fencedlock.storage.store;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.io.TempDir;

/** {@link FencedStoreContract} on an SQLite file. */
final class SqliteFencedStoreIT extends FencedStoreContract {
  @TempDir Path dir;
  private final AtomicInteger databases = new AtomicInteger();

  @Override
  String newDatabaseUrl() {
    return "jdbc:sqlite:" + dir.resolve("store-" + databases.incrementAndGet() + ".db");
  }
}
