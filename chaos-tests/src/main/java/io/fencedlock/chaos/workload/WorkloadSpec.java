package io.fencedlock.chaos.workload;

import java.time.Duration;

/**
 * The shape of a workload. Immutable; {@code with*} methods give changed copies.
 *
 * @param clients how many lock clients (processes) loop concurrently
 * @param resources how many resources they lock (each a lock, a fenced object and a canary)
 * @param ttl each lease's TTL
 * @param maxWait how long one acquire retries before it fails
 * @param nodeTimeout the Redlock per-node timeout
 * @param maxLeaseTtl the Redlock maximum lease TTL (how long a node that lost its memory waits)
 * @param nodeInitCheck false only for the negative control
 * @param tokenPrediction false only for the negative control: a client that predicts tokens from
 *     counters it saw before the wipe would land above them by luck, which hides what the marker
 *     check protects against (a client without that history; NodeAmnesiaIT)
 * @param work how long a holder works between acquiring (and reading the canary) and writing
 * @param renewPercent the share of leases kept alive by renewal ({@code keepAlive}), 0 to 100
 * @param extendPercent the share of leases extended once ({@code extend}) before release
 * @param clientClocks whether every client runs on a wall clock of its own (libfaketime), which the
 *     nemesis can move
 * @param storageTimeout the clients' storage request timeout
 */
public record WorkloadSpec(
    int clients,
    int resources,
    Duration ttl,
    Duration maxWait,
    Duration nodeTimeout,
    Duration maxLeaseTtl,
    boolean nodeInitCheck,
    boolean tokenPrediction,
    Duration work,
    int renewPercent,
    int extendPercent,
    boolean clientClocks,
    Duration storageTimeout) {

  public WorkloadSpec {
    if (clients < 1 || resources < 1) {
      throw new IllegalArgumentException("clients and resources must be >= 1");
    }
    if (maxLeaseTtl.compareTo(ttl) < 0) {
      throw new IllegalArgumentException("maxLeaseTtl must be >= ttl");
    }
    if (renewPercent < 0 || renewPercent > 100 || extendPercent < 0 || extendPercent > 100) {
      throw new IllegalArgumentException("percentages must be 0 to 100");
    }
  }

  /**
   * The standard workload: 5 clients on 3 resources, 1 s leases (a third of them renewed, a third
   * extended once), 2 s maximum lease TTL, 100 ms of work per lease. The 200 ms node timeout leaves
   * room for a loaded 2-core machine while staying far below the TTL.
   */
  public static WorkloadSpec standard() {
    return new WorkloadSpec(
        5,
        3,
        Duration.ofSeconds(1),
        Duration.ofMillis(500),
        Duration.ofMillis(200),
        Duration.ofSeconds(2),
        true,
        true,
        Duration.ofMillis(100),
        30,
        30,
        false,
        Duration.ofSeconds(1));
  }

  /**
   * The negative control's workload: the init-marker check and token prediction off, so tokens come
   * from the two-phase acquire alone over whatever the nodes remember.
   */
  public WorkloadSpec unprotectedFromAmnesia() {
    return new WorkloadSpec(
        clients,
        resources,
        ttl,
        maxWait,
        nodeTimeout,
        maxLeaseTtl,
        false,
        false,
        work,
        renewPercent,
        extendPercent,
        clientClocks,
        storageTimeout);
  }

  /** The same workload with another work time. */
  public WorkloadSpec withWork(Duration time) {
    return new WorkloadSpec(
        clients,
        resources,
        ttl,
        maxWait,
        nodeTimeout,
        maxLeaseTtl,
        nodeInitCheck,
        tokenPrediction,
        time,
        renewPercent,
        extendPercent,
        clientClocks,
        storageTimeout);
  }

  /** The same workload with other client and resource counts. */
  public WorkloadSpec withClients(int count, int resourceCount) {
    return new WorkloadSpec(
        count,
        resourceCount,
        ttl,
        maxWait,
        nodeTimeout,
        maxLeaseTtl,
        nodeInitCheck,
        tokenPrediction,
        work,
        renewPercent,
        extendPercent,
        clientClocks,
        storageTimeout);
  }

  /** The same workload with other renewal and extend shares. */
  public WorkloadSpec withLeaseUse(int renew, int extend) {
    return new WorkloadSpec(
        clients,
        resources,
        ttl,
        maxWait,
        nodeTimeout,
        maxLeaseTtl,
        nodeInitCheck,
        tokenPrediction,
        work,
        renew,
        extend,
        clientClocks,
        storageTimeout);
  }

  /** The same workload with every client on a wall clock of its own (libfaketime). */
  public WorkloadSpec withClientClocks() {
    return new WorkloadSpec(
        clients,
        resources,
        ttl,
        maxWait,
        nodeTimeout,
        maxLeaseTtl,
        nodeInitCheck,
        tokenPrediction,
        work,
        renewPercent,
        extendPercent,
        true,
        storageTimeout);
  }

  /**
   * How long the harness waits for one op before it calls the outcome unknown and kills the client:
   * well above any planned pause, acquire wait and storage timeout.
   */
  public Duration opTimeout() {
    return Duration.ofSeconds(15);
  }
}
