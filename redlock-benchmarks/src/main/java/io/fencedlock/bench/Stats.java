package io.fencedlock.bench;

import java.util.Arrays;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * The figures reported per system and scenario; latencies in microseconds.
 *
 * @param count recorded operations
 * @param errors operations that failed
 * @param overlaps mutual-exclusion violations seen by the handoff scenario
 */
record Stats(double p50, double p99, double p999, double max, double opsPerSec, long count, long errors,
    long overlaps) {

  /** The median of each figure over repetitions, taken figure by figure. */
  static Stats median(List<Stats> reps) {
    return new Stats(
        median(reps, Stats::p50),
        median(reps, Stats::p99),
        median(reps, Stats::p999),
        median(reps, Stats::max),
        median(reps, Stats::opsPerSec),
        (long) median(reps, Stats::count),
        reps.stream().mapToLong(Stats::errors).sum(),
        reps.stream().mapToLong(Stats::overlaps).sum());
  }

  private static double median(List<Stats> reps, ToDoubleFunction<Stats> figure) {
    double[] values = reps.stream().mapToDouble(figure).toArray();
    Arrays.sort(values);
    int mid = values.length / 2;
    return values.length % 2 == 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
  }
}
