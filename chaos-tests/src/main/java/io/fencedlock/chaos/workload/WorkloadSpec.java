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
 * @param tokenPrediction false only for the negative control: a client that predicts tokens from
 *     counters it saw before the wipe would land above them by luck, which hides what the marker
 *     check protects against (a client without that history; NodeAmnesiaIT)
 * @param work how long a holder works between acquiring (and reading the canary) and writing
 */
public record WorkloadSpec(
    int clients,
    String resource,
    Duration ttl,
    Duration maxWait,
    Duration nodeTimeout,
    Duration maxLeaseTtl,
    boolean nodeInitCheck,
    boolean tokenPrediction,
    Duration work) {

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
   * The 200 ms node timeout leaves room for a loaded 2-core machine while staying far below the
   * TTL.
   */
  public static WorkloadSpec standard() {
    return new WorkloadSpec(
        3,
        "chaos:register",
        Duration.ofSeconds(1),
        Duration.ofMillis(500),
        Duration.ofMillis(200),
        Duration.ofSeconds(2),
        true,
        true,
        Duration.ofMillis(100));
  }

  /**
   * The negative control's workload: the init-marker check and token prediction off, so tokens come
   * from the two-phase acquire alone over whatever the nodes remember.
   */
  public WorkloadSpec unprotectedFromAmnesia() {
    return new WorkloadSpec(
        clients, resource, ttl, maxWait, nodeTimeout, maxLeaseTtl, false, false, work);
  }

  /** The same workload with another work time. */
  public WorkloadSpec withWork(Duration time) {
    return new WorkloadSpec(
        clients,
        resource,
        ttl,
        maxWait,
        nodeTimeout,
        maxLeaseTtl,
        nodeInitCheck,
        tokenPrediction,
        time);
  }

  /** The same workload with another client count. */
  public WorkloadSpec withClients(int count) {
    return new WorkloadSpec(
        count,
        resource,
        ttl,
        maxWait,
        nodeTimeout,
        maxLeaseTtl,
        nodeInitCheck,
        tokenPrediction,
        work);
  }
}
