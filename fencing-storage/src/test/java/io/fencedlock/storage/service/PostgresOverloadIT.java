package io.fencedlock.storage.service;

import io.fencedlock.storage.postgres.PostgresExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link OverloadContract} on a private PostgreSQL server. */
final class PostgresOverloadIT extends OverloadContract {
  @RegisterExtension static final PostgresExtension POSTGRES = new PostgresExtension();

  @Override
  String newDatabaseUrl() {
    return POSTGRES.newDatabaseUrl();
  }

  @Override
  boolean writesCanBeHeldFromOutside() {
    return true;
  }
}
