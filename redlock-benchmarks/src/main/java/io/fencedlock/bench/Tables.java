package io.fencedlock.bench;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** Renders the per-scenario tables and the target list as Markdown. */
final class Tables {
  private Tables() {}

  static String markdown(Map<String, ScenarioResult> scenarios, List<Target> targets) {
    StringBuilder out = new StringBuilder();
    for (ScenarioResult s : scenarios.values()) {
      out.append("### Scenario ").append(s.id()).append(": ").append(s.title()).append("\n\n");
      out.append("| system | p50 µs | p99 µs | p99.9 µs | max µs | ops/s | p50 / floor-N | ops / floor-N"
          + " | p50 / Redisson RedLock | errors |\n");
      out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
      for (SystemResult r : s.systems()) {
        Stats m = r.median();
        out.append(String.format(Locale.ROOT, "| %s | %.1f | %.1f | %.1f | %.1f | %.0f | %s | %s | %s | %d |%n",
            r.system(), m.p50(), m.p99(), m.p999(), m.max(), m.opsPerSec(),
            ratio(s.p50Ratio(r.system(), Systems.FLOOR_N)), ratio(s.opsRatio(r.system(), Systems.FLOOR_N)),
            ratio(s.p50Ratio(r.system(), Systems.REDISSON_REDLOCK)), m.errors() + m.overlaps()));
      }
      out.append('\n');
    }
    out.append("### Targets\n\n| target | value | limit | met |\n|---|---:|---:|---|\n");
    for (Target t : targets) {
      out.append(String.format(Locale.ROOT, "| %s | %s | %s %.1f | %s |%n", t.name(),
          Double.isNaN(t.value()) ? "n/a" : String.format(Locale.ROOT, "%.2f", t.value()),
          t.atMost() ? "≤" : "≥", t.limit(), t.met() ? "yes" : "**no**"));
    }
    Map<String, Double> references = Targets.references(scenarios);
    if (!references.isEmpty()) {
      out.append("\nReferences (beyond the run's noise, no client waiting for a quorum of parallel replies can beat"
          + " Redisson RedLock by more):\n\n");
      references.forEach((name, value) -> out.append(String.format(Locale.ROOT, "- %s = %s%n", name,
          Double.isNaN(value) ? "n/a" : String.format(Locale.ROOT, "%.2f", value))));
    }
    return out.toString();
  }

  private static String ratio(Optional<Double> r) {
    return r.map(v -> String.format(Locale.ROOT, "%.2f×", v)).orElse("–");
  }
}
