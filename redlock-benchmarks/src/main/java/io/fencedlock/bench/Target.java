package io.fencedlock.bench;

/**
 * One target of issue 5, checked on figures from the same run.
 *
 * @param name what is compared, e.g. {@code s1.unfenced_p50_over_floorN}
 * @param value the measured figure, or NaN if a system it needs did not run
 * @param limit the bound it must respect
 * @param atMost true if {@code value <= limit} is required, false if {@code value >= limit}
 * @param met whether it did
 */
record Target(String name, double value, double limit, boolean atMost, boolean met) {

  static Target atMost(String name, double value, double limit) {
    return new Target(name, value, limit, true, !Double.isNaN(value) && value <= limit);
  }

  static Target atLeast(String name, double value, double limit) {
    return new Target(name, value, limit, false, !Double.isNaN(value) && value >= limit);
  }
}
