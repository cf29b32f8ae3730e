package io.fencedlock.junit.example;

import io.fencedlock.redlock.Lease;
import io.fencedlock.redlock.Redlock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** The code under test in the example of redlock-junit's README: places an order under its lock. */
final class OrderService {
  private final Redlock redlock;
  private final Map<String, Long> placed = new ConcurrentHashMap<>();

  OrderService(Redlock redlock) {
    this.redlock = redlock;
  }

  /** Places the order while holding its lock; false if another holder has the lock. */
  boolean place(String orderId) {
    Optional<Lease> held = redlock.tryAcquire("orders:" + orderId, Duration.ofSeconds(10));
    if (held.isEmpty()) {
      return false;
    }
    try (Lease lease = held.get()) {
      // A real service writes the order here and passes the token to the store, which rejects
      // tokens lower than the highest it has accepted.
      placed.put(orderId, lease.fencingToken());
      return true;
    }
  }
}
