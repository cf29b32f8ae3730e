package io.fencedlock.storage.service;

import java.nio.file.Path;

/** {@link ServiceCrashContract} on an SQLite file given as a plain path. */
final class SqliteServiceCrashIT extends ServiceCrashContract {
  @Override
  String newDatabaseArgument(Path dir) {
    return dir.resolve("data").resolve("crash.db").toString();
  }
}
