package io.fencedlock.bench;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.jspecify.annotations.Nullable;

/**
 * The figures reported per system and scenario; latencies in microseconds.
 *
 * @param count recorded operations
 * @param errors operations that failed
 * @param overlaps mutual-exclusion violations seen by the handoff scenario
 * @param cpuMicrosPerOp the client side's CPU time per recorded operation ({@link CostMeter}); NaN
 *     if not measured
 * @param allocatedBytesPerOp bytes the client side allocated per recorded operation; NaN if not
 *     measured
 * @param serverCpuMicrosPerOp the Redis servers' CPU time per recorded operation ({@link
 *     ServerCpu}); NaN if not measured
 */
record Stats(
    double p50,
    double p99,
    double p999,
    double max,
    double opsPerSec,
    long count,
    long errors,
    long overlaps,
    double cpuMicrosPerOp,
    double allocatedBytesPerOp,
    double serverCpuMicrosPerOp) {

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
        reps.stream().mapToLong(Stats::overlaps).sum(),
        median(reps, Stats::cpuMicrosPerOp),
        median(reps, Stats::allocatedBytesPerOp),
        median(reps, Stats::serverCpuMicrosPerOp));
  }

  /** The median of one figure over repetitions, leaving out those that lack it; NaN if all do. */
  static double median(List<Stats> reps, ToDoubleFunction<Stats> figure) {
    double[] values =
        reps.stream().mapToDouble(figure).filter(v -> !Double.isNaN(v)).sorted().toArray();
    if (values.length == 0) {
      return Double.NaN;
    }
    int mid = values.length / 2;
    return values.length % 2 == 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
  }

  /** The smallest and largest of one figure over repetitions; null if none has it. */
  static @Nullable Range range(List<Stats> reps, ToDoubleFunction<Stats> figure) {
    return Range.of(reps.stream().mapToDouble(figure).toArray());
  }

  /** For JSON: every figure, the client's and the servers' cost only where they were measured. */
  Map<String, Object> toMap() {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("p50", p50);
    map.put("p99", p99);
    map.put("p999", p999);
    map.put("max", max);
    map.put("opsPerSec", opsPerSec);
    map.put("count", count);
    map.put("errors", errors);
    map.put("overlaps", overlaps);
    if (!Double.isNaN(cpuMicrosPerOp)) {
      map.put("cpuMicrosPerOp", round(cpuMicrosPerOp));
    }
    if (!Double.isNaN(allocatedBytesPerOp)) {
      map.put("allocatedBytesPerOp", Math.round(allocatedBytesPerOp));
    }
    if (!Double.isNaN(serverCpuMicrosPerOp)) {
      map.put("serverCpuMicrosPerOp", round(serverCpuMicrosPerOp));
    }
    return map;
  }

  private static double round(double v) {
    return Math.round(v * 100) / 100.0;
  }

  static List<Map<String, Object>> toMaps(List<Stats> reps) {
    return reps.stream().map(Stats::toMap).toList();
  }
}
