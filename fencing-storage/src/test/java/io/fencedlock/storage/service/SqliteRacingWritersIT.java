package io.fencedlock.storage.service;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** {@link RacingWritersContract} on an SQLite file. */
final class SqliteRacingWritersIT extends RacingWritersContract {
  @TempDir Path dir;

  @Override
  String newDatabaseUrl() {
    return "jdbc:sqlite:" + dir.resolve("race.db");
  }
}
