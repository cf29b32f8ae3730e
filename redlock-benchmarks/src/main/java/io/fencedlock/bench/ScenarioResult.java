package io.fencedlock.bench;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/** The results of one scenario, per system in first-run order. Not thread-safe. */
final class ScenarioResult {
  private final Scenario scenario;
  private final Map<String, SystemResult> bySystem = new LinkedHashMap<>();

  ScenarioResult(Scenario scenario) {
    this.scenario = scenario;
  }

  void add(String system, Measurement measurement) {
    bySystem.computeIfAbsent(system, SystemResult::new).add(measurement);
  }

  String id() {
    return scenario.id();
  }

  String title() {
    return scenario.title();
  }

  List<SystemResult> systems() {
    return List.copyOf(bySystem.values());
  }

  Optional<Stats> median(String system) {
    return Optional.ofNullable(bySystem.get(system)).map(SystemResult::median);
  }

  /** {@code system}'s figures in repetition {@code rep} (from 0), if it ran then. */
  Optional<Stats> repetition(String system, int rep) {
    SystemResult result = bySystem.get(system);
    return result == null || rep >= result.reps().size()
        ? Optional.empty()
        : Optional.of(result.reps().get(rep));
  }

  /** The most repetitions any system has. */
  int repetitions() {
    return bySystem.values().stream().mapToInt(r -> r.reps().size()).max().orElse(0);
  }

  /**
   * {@code system}'s median of {@code figure} over {@code base}'s, if both ran and base's is not
   * zero.
   */
  Optional<Double> ratio(String system, String base, ToDoubleFunction<Stats> figure) {
    Optional<Stats> a = median(system);
    Optional<Stats> b = median(base);
    if (a.isEmpty() || b.isEmpty() || figure.applyAsDouble(b.get()) == 0) {
      return Optional.empty();
    }
    double value = figure.applyAsDouble(a.get()) / figure.applyAsDouble(b.get());
    return Double.isNaN(value) ? Optional.empty() : Optional.of(value);
  }

  /** {@code system}'s median p50 over {@code base}'s, if both ran. */
  Optional<Double> p50Ratio(String system, String base) {
    return ratio(system, base, Stats::p50);
  }

  /** {@code system}'s median throughput over {@code base}'s, if both ran. */
  Optional<Double> opsRatio(String system, String base) {
    return ratio(system, base, Stats::opsPerSec);
  }
}
