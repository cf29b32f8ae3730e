package io.fencedlock.bench;

import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.jspecify.annotations.Nullable;

/**
 * One system's runs in one scenario: per-repetition figures, their medians, and all repetitions'
 * latencies merged (for the percentile plot only). Not thread-safe.
 */
final class SystemResult {
  private final String system;
  private final List<Stats> reps = new ArrayList<>();
  private final List<String> errorSamples = new ArrayList<>();
  private final Histogram merged = Measurement.newHistogram();

  SystemResult(String system) {
    this.system = system;
  }

  void add(Measurement measurement) {
    reps.add(measurement.stats());
    if (!measurement.firstError().isEmpty()) {
      errorSamples.add(measurement.firstError());
    }
    merged.add(measurement.latencies());
  }

  String system() {
    return system;
  }

  List<Stats> reps() {
    return List.copyOf(reps);
  }

  /** The first error message of each repetition that had errors. */
  List<String> errorSamples() {
    return List.copyOf(errorSamples);
  }

  Stats median() {
    return Stats.median(reps);
  }

  /** The smallest and largest of {@code figure} over the repetitions; null if none has it. */
  @Nullable Range range(java.util.function.ToDoubleFunction<Stats> figure) {
    return Stats.range(reps, figure);
  }

  Histogram merged() {
    return merged;
  }
}
