package io.fencedlock.storage.service;

import io.fencedlock.storage.postgres.PostgresExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link RacingWritersContract} on a private PostgreSQL server. */
final class PostgresRacingWritersIT extends RacingWritersContract {
  @RegisterExtension static final PostgresExtension POSTGRES = new PostgresExtension();

  @Override
  String newDatabaseUrl() {
    return POSTGRES.newDatabaseUrl();
  }
}
