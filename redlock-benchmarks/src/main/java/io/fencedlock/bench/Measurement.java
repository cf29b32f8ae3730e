package io.fencedlock.bench;

import org.HdrHistogram.Histogram;
import org.jspecify.annotations.Nullable;

/**
 * What one run of one system in one scenario produced.
 *
 * @param latencies recorded latencies in nanoseconds (of acquire + release, or of a handoff)
 * @param elapsedNanos the length of the measured window
 * @param errors operations that failed (not granted, timed out) and were not recorded
 * @param overlaps times two clients held the lock at once (only the handoff scenario checks)
 * @param firstError the message of the first error, or empty; tells what the errors were
 * @param cost what the measured window cost the client side and the Redis servers, or null if not
 *     measured
 */
record Measurement(
    Histogram latencies,
    long elapsedNanos,
    long errors,
    long overlaps,
    String firstError,
    @Nullable ClientCost cost) {

  /** A measurement without the client's cost (the storage bench: its server runs in this JVM). */
  Measurement(
      Histogram latencies, long elapsedNanos, long errors, long overlaps, String firstError) {
    this(latencies, elapsedNanos, errors, overlaps, firstError, null);
  }

  Stats stats() {
    double seconds = elapsedNanos / 1e9;
    long count = latencies.getTotalCount();
    return new Stats(
        micros(latencies.getValueAtPercentile(50)),
        micros(latencies.getValueAtPercentile(99)),
        micros(latencies.getValueAtPercentile(99.9)),
        micros(latencies.getMaxValue()),
        count / seconds,
        count,
        errors,
        overlaps,
        cost == null ? Double.NaN : cost.cpuMicrosPer(count),
        cost == null ? Double.NaN : cost.bytesPer(count),
        cost == null ? Double.NaN : cost.serverCpuMicrosPer(count));
  }

  private static double micros(long nanos) {
    return Math.round(nanos / 100.0) / 10.0;
  }

  /** A new histogram with the precision every scenario uses: 3 digits, up to one minute. */
  static Histogram newHistogram() {
    return new Histogram(60_000_000_000L, 3);
  }
}
