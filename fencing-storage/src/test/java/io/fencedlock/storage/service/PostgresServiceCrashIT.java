package io.fencedlock.storage.service;

import io.fencedlock.storage.postgres.PostgresExtension;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link ServiceCrashContract} on a private PostgreSQL server (only the service is killed). */
final class PostgresServiceCrashIT extends ServiceCrashContract {
  @RegisterExtension static final PostgresExtension POSTGRES = new PostgresExtension();

  @Override
  String newDatabaseArgument(Path dir) {
    return POSTGRES.newDatabaseUrl();
  }
}
