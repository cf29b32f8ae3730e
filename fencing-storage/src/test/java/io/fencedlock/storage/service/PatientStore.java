package io.fencedlock.storage.service;

import io.fencedlock.storage.store.StoreTimeouts;
import io.fencedlock.testkit.support.Timing;

/**
 * Store timeouts for tests that hold a database lock on purpose and expect the service's writes to
 * wait it out: longer than any such test holds it, so that the store's own lock and statement
 * timeouts (tested in {@link PostgresStoreGaveUpIT}) do not end the wait first.
 */
final class PatientStore {
  static final StoreTimeouts TIMEOUTS =
      new StoreTimeouts(Timing.AWAIT, Timing.WORKLOAD, Timing.WORKLOAD);

  private PatientStore() {}
}
