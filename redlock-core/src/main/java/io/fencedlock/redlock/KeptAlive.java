package io.fencedlock.redlock;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The leases of one client that are being kept alive, so that closing the client can stop their
 * renewal, in the order they started (the same in every run of the simulator). Thread-safe.
 */
final class KeptAlive {
  private final Map<Long, DefaultLease> leases = new ConcurrentHashMap<>();
  private final AtomicLong started = new AtomicLong();

  /** Registers a lease whose renewal starts; returns the key that {@link #remove} takes. */
  long add(DefaultLease lease) {
    long key = started.incrementAndGet();
    leases.put(key, lease);
    return key;
  }

  void remove(long key) {
    leases.remove(key);
  }

  /** Stops every renewal (the client is closing); their leases' loss signals are cancelled. */
  void stopAll() {
    List<Long> keys = leases.keySet().stream().sorted().toList();
    for (Long key : keys) {
      DefaultLease lease = leases.remove(key);
      if (lease != null) {
        lease.stopRenewal();
      }
    }
  }
}
