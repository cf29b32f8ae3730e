package io.fencedlock.chaos.workload;

import java.util.SplittableRandom;

/**
 * What one client does with one lease: which resource, whether the lease is renewed, whether it is
 * extended once. A pure function of the seed, the client and the step, so a run's ops are the same
 * for the same seed (their outcomes are not: the system decides those). Immutable.
 *
 * @param resource the resource's index
 * @param renew whether the lease is kept alive by renewal
 * @param extend whether the holder extends it once before releasing
 */
public record LeasePlan(int resource, boolean renew, boolean extend) {

  /** The plan of {@code client}'s {@code step}-th lease. Pure. */
  public static LeasePlan of(long seed, int client, long step, WorkloadSpec spec) {
    SplittableRandom rnd = new SplittableRandom(seed * 1_000_003L + client * 7_919L + step);
    rnd = rnd.split(); // decorrelate neighbouring steps
    return new LeasePlan(
        rnd.nextInt(spec.resources()),
        rnd.nextInt(100) < spec.renewPercent(),
        rnd.nextInt(100) < spec.extendPercent());
  }
}
