package io.fencedlock.bench;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.redisson.api.RFencedLock;

/**
 * Redisson's {@code RFencedLock} (present in 3.37.0) on the first node only: a fenced lock without
 * a quorum, so it is not fault-tolerant; shown for its cost. Thread-safe.
 */
final class RedissonFencedSystem implements LockSystem {
  private final RedissonClients clients;

  RedissonFencedSystem(List<String> uris) {
    this.clients = new RedissonClients(uris.subList(0, 1));
  }

  @Override
  public String name() {
    return "redisson-fenced-1";
  }

  @Override
  public boolean canWait() {
    return true;
  }

  @Override
  public Held acquire(String resource, Duration maxWait) {
    RFencedLock lock = clients.first().getFencedLock(resource);
    // Unlike RLock.tryLock, this declares no InterruptedException; interrupts surface as Redisson's
    // own.
    Long token =
        lock.tryLockAndGetToken(
            maxWait.toMillis(), BenchTiming.LEASE_TTL.toMillis(), TimeUnit.MILLISECONDS);
    if (token == null) {
      throw new NotGrantedException(name() + ": " + resource + " not granted within " + maxWait);
    }
    return lock::unlock;
  }

  @Override
  public void close() {
    clients.close();
  }
}
