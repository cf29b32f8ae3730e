package io.fencedlock.storage.service;

import io.fencedlock.storage.Stats;
import io.fencedlock.storage.WriteResult;
import java.util.concurrent.atomic.AtomicLong;

/** Counts write outcomes for {@code GET /stats}. Thread-safe, lock-free. */
final class WriteCounters {
  private final AtomicLong accepted = new AtomicLong();
  private final AtomicLong rejectedStale = new AtomicLong();
  private final AtomicLong alarms = new AtomicLong();

  void record(WriteResult result) {
    if (result instanceof WriteResult.Accepted) {
      accepted.incrementAndGet();
    } else if (((WriteResult.Rejected) result).reason() == WriteResult.Reason.STALE) {
      rejectedStale.incrementAndGet();
    } else {
      alarms.incrementAndGet();
    }
  }

  /** A snapshot; the three counters are read one after the other, not atomically together. */
  Stats snapshot() {
    return new Stats(accepted.get(), rejectedStale.get(), alarms.get());
  }
}
