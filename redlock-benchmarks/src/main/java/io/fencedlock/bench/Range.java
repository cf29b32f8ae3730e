package io.fencedlock.bench;

import org.jspecify.annotations.Nullable;

/**
 * The smallest and largest value of a figure over a run's repetitions: its spread, reported beside
 * the median.
 */
record Range(double min, double max) {

  /**
   * The range of {@code values}, leaving out NaN and the infinities (figures without a value, and
   * divisions by zero); null if nothing is left.
   */
  static @Nullable Range of(double[] values) {
    double min = Double.POSITIVE_INFINITY;
    double max = Double.NEGATIVE_INFINITY;
    for (double v : values) {
      if (Double.isFinite(v)) {
        min = Math.min(min, v);
        max = Math.max(max, v);
      }
    }
    return min > max ? null : new Range(min, max);
  }
}
