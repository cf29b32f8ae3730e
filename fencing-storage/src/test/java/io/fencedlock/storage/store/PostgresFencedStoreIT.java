package io.fencedlock.storage.store;

import io.fencedlock.storage.postgres.PostgresExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link FencedStoreContract} on a private PostgreSQL server. */
final class PostgresFencedStoreIT extends FencedStoreContract {
  @RegisterExtension static final PostgresExtension POSTGRES = new PostgresExtension();

  @Override
  String newDatabaseUrl() {
    return POSTGRES.newDatabaseUrl();
  }
}
