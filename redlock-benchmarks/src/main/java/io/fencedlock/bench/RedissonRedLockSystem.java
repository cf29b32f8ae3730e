package io.fencedlock.bench;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.redisson.RedissonRedLock;
import org.redisson.api.RLock;

/**
 * Redisson's {@code RedissonRedLock} over one client per node: the Java incumbent. It asks the
 * nodes one after another, not in parallel. Thread-safe; a lock belongs to the thread that took it.
 */
final class RedissonRedLockSystem implements LockSystem {
  private final RedissonClients clients;

  RedissonRedLockSystem(List<String> uris) {
    this.clients = new RedissonClients(uris);
  }

  @Override
  public String name() {
    return "redisson-redlock";
  }

  @Override
  public boolean canWait() {
    return true;
  }

  @Override
  public Held acquire(String resource, Duration maxWait) {
    RLock[] locks = clients.all().stream().map(c -> c.getLock(resource)).toArray(RLock[]::new);
    RedissonRedLock lock = new RedissonRedLock(locks);
    if (!RedissonWaits.tryLock(lock, maxWait)) {
      throw new NotGrantedException(name() + ": " + resource + " not granted within " + maxWait);
    }
    return lock::unlock;
  }

  @Override
  public void close() {
    clients.close();
  }

  /** The wait semantics shared by both Redisson systems. */
  static final class RedissonWaits {
    private RedissonWaits() {}

    static boolean tryLock(RLock lock, Duration maxWait) {
      try {
        return lock.tryLock(
            maxWait.toMillis(), BenchTiming.LEASE_TTL.toMillis(), TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new NotGrantedException("interrupted", e);
      }
    }
  }
}
