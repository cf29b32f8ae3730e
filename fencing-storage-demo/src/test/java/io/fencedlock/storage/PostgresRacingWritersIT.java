package io.fencedlock.storage;

import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link RacingWritersContract} on a private PostgreSQL server. */
final class PostgresRacingWritersIT extends RacingWritersContract {
  @RegisterExtension static final PostgresExtension POSTGRES = new PostgresExtension();

  @Override
  String newDatabaseUrl() {
    return POSTGRES.newDatabaseUrl();
  }
}
