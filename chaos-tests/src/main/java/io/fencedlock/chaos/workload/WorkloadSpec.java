package io.fencedlock.chaos.workload;

import java.time.Duration;

/**
 * The shape of a workload. Immutable.
 *
 * @param clients how many lock clients loop concurrently
 * @param resource the lock's resource name, also the fenced object's key
 * @param ttl each lease's TTL
 * @param maxWait how long one acquire retries before it fails
 * @param nodeTimeout the Redlock per-node timeout
 * @param maxLeaseTtl the Redlock maximum lease TTL (how long a node that lost its memory waits)
 * @param nodeInitCheck false only for the negative control
 * @param work how long a holder works between acquiring (and reading the canary) and writing
 */
public record WorkloadSpec(int clients, String resource, Duration ttl, Duration maxWait, Duration nodeTimeout,
    Duration maxLeaseTtl, boolean nodeInitCheck, Duration work) {

  public WorkloadSpec {
    if (clients < 1) {
      throw new IllegalArgumentException("clients must be >= 1: " + clients);
    }
    if (maxLeaseTtl.compareTo(ttl) < 0) {
      throw new IllegalArgumentException("maxLeaseTtl must be >= ttl");
    }
  }

  /**
   * The standard workload: 3 clients, 1 s leases, 2 s maximum lease TTL, 100 ms of work per lease.
   * The 200 ms node timeout leaves room for a loaded 2-core machine while staying far below the TTL.
   */
  public static WorkloadSpec standard() {
    return new WorkloadSpec(3, "chaos:register", Duration.ofSeconds(1), Duration.ofMillis(500),
        Duration.ofMillis(200), Duration.ofSeconds(2), true, Duration.ofMillis(100));
  }

  /** The same workload with another init-check setting. */
  public WorkloadSpec withNodeInitCheck(boolean check) {
    return new WorkloadSpec(clients, resource, ttl, maxWait, nodeTimeout, maxLeaseTtl, check, work);
  }

  /** The same workload with another work time. */
  public WorkloadSpec withWork(Duration time) {
    return new WorkloadSpec(clients, resource, ttl, maxWait, nodeTimeout, maxLeaseTtl, nodeInitCheck, time);
  }

  /** The same workload with another client count. */
  public WorkloadSpec withClients(int count) {
    return new WorkloadSpec(count, resource, ttl, maxWait, nodeTimeout, maxLeaseTtl, nodeInitCheck, work);
  }
}
