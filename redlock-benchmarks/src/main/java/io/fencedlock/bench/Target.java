package io.fencedlock.bench;

import org.jspecify.annotations.Nullable;

/**
 * One target, checked on figures from the same run.
 *
 * @param name what is compared, e.g. {@code s1.unfenced_p50_over_floorRaw}
 * @param value the measured figure (from the medians), or NaN if a system it needs did not run
 * @param limit the bound it must respect
 * @param atMost true if {@code value <= limit} is required, false if {@code value >= limit}
 * @param met whether it did; never when the value is NaN or infinite
 * @param repetitions the smallest and largest value of the same figure computed from each
 *     repetition alone, or null if not known (the soak's targets)
 * @param limitRule how the limit was computed from the same run, or null for a fixed limit
 * @param floorOfItsKind the same figure for the floor of its kind, the cheapest client measured
 *     here that does no more than a correct lock of this kind must (at most the smallest scripts it
 *     needs), held to the same limit; null where no such floor ran. It tells a target that no
 *     correct client meets on this host from one ours misses.
 */
record Target(
    String name,
    double value,
    double limit,
    boolean atMost,
    boolean met,
    @Nullable Range repetitions,
    @Nullable String limitRule,
    @Nullable FloorCheck floorOfItsKind) {

  /**
   * A target's figure for the floor of its kind.
   *
   * @param system the floor's system name, e.g. {@code floor-raw-fenced}
   * @param value its figure, computed as the target's own from the medians
   * @param met whether it respects the target's limit
   */
  record FloorCheck(String system, double value, boolean met) {}

  static Target atMost(String name, double value, double limit) {
    return of(name, value, limit, true, null, null, null, Double.NaN);
  }

  static Target atLeast(String name, double value, double limit) {
    return of(name, value, limit, false, null, null, null, Double.NaN);
  }

  /**
   * A checked target; {@code floor} and {@code floorValue} are the floor of its kind and its figure
   * (null and NaN: none, or it did not run, and then the target carries no {@link FloorCheck}).
   */
  static Target of(
      String name,
      double value,
      double limit,
      boolean atMost,
      @Nullable Range repetitions,
      @Nullable String limitRule,
      @Nullable String floor,
      double floorValue) {
    FloorCheck floorCheck =
        floor == null || Double.isNaN(floorValue)
            ? null
            : new FloorCheck(floor, floorValue, respects(floorValue, limit, atMost));
    return new Target(
        name,
        value,
        limit,
        atMost,
        respects(value, limit, atMost),
        repetitions,
        limitRule,
        floorCheck);
  }

  private static boolean respects(double value, double limit, boolean atMost) {
    // Neither a figure without a value (NaN) nor a division by zero (an infinity) is a result.
    return Double.isFinite(value)
        && Double.isFinite(limit)
        && (atMost ? value <= limit : value >= limit);
  }
}
