package io.fencedlock.bench;

import org.jspecify.annotations.Nullable;

/**
 * One target, checked on figures from the same run.
 *
 * @param name what is compared, e.g. {@code s1.unfenced_p50_over_floorRaw}
 * @param value the measured figure (from the medians), or NaN if a system it needs did not run
 * @param limit the bound it must respect
 * @param atMost true if {@code value <= limit} is required, false if {@code value >= limit}
 * @param met whether it did; never when the value is NaN
 * @param repetitions the smallest and largest value of the same figure computed from each
 *     repetition alone, or null if not known (the soak's targets)
 * @param limitRule how the limit was computed from the same run, or null for a fixed limit
 */
record Target(
    String name,
    double value,
    double limit,
    boolean atMost,
    boolean met,
    @Nullable Range repetitions,
    @Nullable String limitRule) {

  static Target atMost(String name, double value, double limit) {
    return of(name, value, limit, true, null, null);
  }

  static Target atLeast(String name, double value, double limit) {
    return of(name, value, limit, false, null, null);
  }

  static Target of(
      String name,
      double value,
      double limit,
      boolean atMost,
      @Nullable Range repetitions,
      @Nullable String limitRule) {
    boolean met =
        !Double.isNaN(value) && !Double.isNaN(limit) && (atMost ? value <= limit : value >= limit);
    return new Target(name, value, limit, atMost, met, repetitions, limitRule);
  }
}
