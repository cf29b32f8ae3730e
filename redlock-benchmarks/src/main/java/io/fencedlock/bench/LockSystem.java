package io.fencedlock.bench;

import java.time.Duration;

/**
 * One lock implementation under test, behind the two operations every scenario needs.
 * Implementations are thread-safe: scenarios call them from many threads at once, each thread
 * acting as one client.
 */
public interface LockSystem extends AutoCloseable {

  /** The short name used in tables, plots and results.json. */
  String name();

  /**
   * Acquires {@code resource}, waiting at most {@code maxWait} for it (zero: one attempt).
   *
   * @throws NotGrantedException if the lock was not granted
   */
  Held acquire(String resource, Duration maxWait);

  /** Whether {@link #acquire} can wait for a held lock; the floors make exactly one attempt. */
  boolean canWait();

  /**
   * Whether the system takes part in the scenario with this id. Every system takes part in every
   * scenario it can run; a diagnostic only in the one it explains, to keep a run short.
   */
  default boolean takesPart(String scenarioId) {
    return true;
  }

  @Override
  void close();

  /** A granted lock; release it from the thread that acquired it (Redisson requires that). */
  interface Held {
    void release();
  }
}
