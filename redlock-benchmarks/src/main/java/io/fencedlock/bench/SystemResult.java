package io.fencedlock.bench;

import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * One system's runs in one scenario: per-repetition figures, their medians, and all
 * repetitions' latencies merged (for the percentile plot only). Not thread-safe.
 */
final class SystemResult {
  private final String system;
  private final List<Stats> reps = new ArrayList<>();
  private final Histogram merged = Measurement.newHistogram();

  SystemResult(String system) {
    this.system = system;
  }

  void add(Measurement measurement) {
    reps.add(measurement.stats());
    merged.add(measurement.latencies());
  }

  String system() {
    return system;
  }

  List<Stats> reps() {
    return List.copyOf(reps);
  }

  Stats median() {
    return Stats.median(reps);
  }

  Histogram merged() {
    return merged;
  }
}
