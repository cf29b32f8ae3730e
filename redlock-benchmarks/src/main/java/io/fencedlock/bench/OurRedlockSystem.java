package io.fencedlock.bench;

import io.fencedlock.redlock.Lease;
import io.fencedlock.redlock.LockAcquisitionException;
import io.fencedlock.redlock.Redlock;
import io.fencedlock.redlock.RedlockConfig;
import io.fencedlock.redlock.RedlockMetrics;
import java.time.Duration;
import java.util.List;

/** This project's Redlock with default settings, fenced or not. Thread-safe. */
final class OurRedlockSystem implements LockSystem {
  private final String name;
  private final Redlock redlock;

  OurRedlockSystem(String name, List<String> uris, boolean fenced) {
    this(name, uris, fenced, RedlockMetrics.NONE);
  }

  /** The same, reporting to {@code metrics} (for {@link Probe}'s counts of attempts). */
  OurRedlockSystem(String name, List<String> uris, boolean fenced, RedlockMetrics metrics) {
    this.name = name;
    this.redlock =
        Redlock.create(
            RedlockConfig.builder().nodes(uris).fencing(fenced).metrics(metrics).build());
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public boolean canWait() {
    return true;
  }

  @Override
  public Held acquire(String resource, Duration maxWait) {
    Lease lease;
    try {
      lease = redlock.acquire(resource, BenchTiming.LEASE_TTL, maxWait);
    } catch (LockAcquisitionException e) {
      throw new NotGrantedException(name + ": " + e.getMessage(), e);
    }
    return lease::release;
  }

  @Override
  public void close() {
    redlock.close();
  }
}
