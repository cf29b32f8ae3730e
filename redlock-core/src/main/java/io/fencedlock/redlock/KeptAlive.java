package io.fencedlock.redlock;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The leases of one client that are being kept alive, so that closing the client can end them, in
 * the order they started (the same in every run of the simulator). Thread-safe.
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

  /**
   * The client is closing: every lease kept alive is lost ({@link LeaseLoss.Reason#CLIENT_CLOSED}),
   * which stops its renewal and tells its holder to stop, as any loss does. Without renewal the
   * lease runs out while the holder may still work, so the holder must hear of it.
   */
  void loseAll() {
    List<Long> keys = leases.keySet().stream().sorted().toList();
    for (Long key : keys) {
      DefaultLease lease = leases.remove(key);
      if (lease != null) {
        lease.loseToClosing();
      }
    }
  }
}
