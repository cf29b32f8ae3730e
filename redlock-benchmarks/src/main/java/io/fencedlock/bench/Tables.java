package io.fencedlock.bench;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * Renders the per-scenario tables (latency and throughput; the client's cost and the spread over
 * repetitions) and the target list as Markdown.
 */
final class Tables {
  static final String COST_NOTE =
      "CPU and allocation columns: client side only, this JVM's process CPU time (without the"
          + " in-process fault proxy's threads) and heap allocation, per operation (scenario 3: per"
          + " handoff). Server CPU: the 5 Redis server processes' user + system time over the same"
          + " stretches (/proc, in clock ticks), per operation. Medians over the repetitions,"
          + " smallest–largest in brackets.";

  private Tables() {}

  static String markdown(Map<String, ScenarioResult> scenarios, List<Target> targets) {
    StringBuilder out = new StringBuilder();
    for (ScenarioResult s : scenarios.values()) {
      out.append("### Scenario ").append(s.id()).append(": ").append(s.title()).append("\n\n");
      latency(out, s);
      out.append('\n').append(COST_NOTE).append("\n\n");
      cost(out, s);
      out.append('\n');
    }
    targets(out, targets);
    List<Targets.Reference> references = Targets.references(scenarios);
    if (!references.isEmpty()) {
      out.append("\nReferences (no targets):\n\n");
      for (Targets.Reference r : references) {
        out.append(
            String.format(
                Locale.ROOT, "- %s = %s: %s%n", r.name(), number(r.value()), r.meaning()));
      }
    }
    return out.toString();
  }

  private static void latency(StringBuilder out, ScenarioResult s) {
    out.append(
        "| system | p50 µs | p99 µs | p99.9 µs | max µs | ops/s | p50 / floor-raw | p50 / floor-N"
            + " | ops / floor-raw | ops / floor-N | p50 / Redisson RedLock | errors |\n");
    out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (SystemResult r : s.systems()) {
      Stats m = r.median();
      out.append(
          String.format(
              Locale.ROOT,
              "| %s | %.1f | %.1f | %.1f | %.1f | %.0f | %s | %s | %s | %s | %s | %d |%n",
              r.system(),
              m.p50(),
              m.p99(),
              m.p999(),
              m.max(),
              m.opsPerSec(),
              ratio(s.p50Ratio(r.system(), Systems.FLOOR_RAW)),
              ratio(s.p50Ratio(r.system(), Systems.FLOOR_N)),
              ratio(s.opsRatio(r.system(), Systems.FLOOR_RAW)),
              ratio(s.opsRatio(r.system(), Systems.FLOOR_N)),
              ratio(s.p50Ratio(r.system(), Systems.REDISSON_REDLOCK)),
              m.errors() + m.overlaps()));
    }
  }

  private static void cost(StringBuilder out, ScenarioResult s) {
    out.append(
        "| system | p50 µs | ops/s | CPU µs/op | CPU / floor-raw | allocated bytes/op | allocated /"
            + " floor-raw | server CPU µs/op | server CPU / floor-raw |\n");
    out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (SystemResult r : s.systems()) {
      Stats m = r.median();
      out.append(
          String.format(
              Locale.ROOT,
              "| %s | %s | %s | %s | %s | %s | %s | %s | %s |%n",
              r.system(),
              spread(m.p50(), r, Stats::p50, "%.1f"),
              spread(m.opsPerSec(), r, Stats::opsPerSec, "%.0f"),
              spread(m.cpuMicrosPerOp(), r, Stats::cpuMicrosPerOp, "%.1f"),
              ratio(s.ratio(r.system(), Systems.FLOOR_RAW, Stats::cpuMicrosPerOp)),
              spread(m.allocatedBytesPerOp(), r, Stats::allocatedBytesPerOp, "%.0f"),
              ratio(s.ratio(r.system(), Systems.FLOOR_RAW, Stats::allocatedBytesPerOp)),
              spread(m.serverCpuMicrosPerOp(), r, Stats::serverCpuMicrosPerOp, "%.1f"),
              ratio(s.ratio(r.system(), Systems.FLOOR_RAW, Stats::serverCpuMicrosPerOp))));
    }
  }

  private static void targets(StringBuilder out, List<Target> targets) {
    out.append(
        "### Targets\n\n"
            + "The floor of its kind: the same figure for the cheapest client measured here that"
            + " does no more than a correct lock of that kind must (at most the smallest scripts"
            + " it needs), held to the same limit; – where no such floor ran.\n\n"
            + "| target | value | per repetition | limit | met | the floor of its kind |\n"
            + "|---|---:|---:|---|---|---|\n");
    for (Target t : targets) {
      Range reps = t.repetitions();
      Target.FloorCheck floor = t.floorOfItsKind();
      out.append(
          String.format(
              Locale.ROOT,
              "| %s | %s | %s | %s %s%s | %s | %s |%n",
              t.name(),
              number(t.value()),
              reps == null ? "–" : number(reps.min()) + "–" + number(reps.max()),
              t.atMost() ? "≤" : "≥",
              number(t.limit()),
              t.limitRule() == null ? "" : " (" + t.limitRule() + ")",
              t.met() ? "yes" : "**no**",
              floor == null
                  ? "–"
                  : floor.system()
                      + " "
                      + number(floor.value())
                      + (floor.met() ? ", met" : ", **missed**")));
    }
  }

  /** "412.0 (398.2–431.9)": the median, and the smallest and largest repetition. */
  private static String spread(
      double median, SystemResult r, ToDoubleFunction<Stats> figure, String format) {
    if (Double.isNaN(median)) {
      return "–";
    }
    Range range = r.range(figure);
    String value = String.format(Locale.ROOT, format, median);
    return range == null || r.reps().size() < 2
        ? value
        : value
            + " ("
            + String.format(Locale.ROOT, format, range.min())
            + "–"
            + String.format(Locale.ROOT, format, range.max())
            + ")";
  }

  private static String number(double value) {
    return Double.isNaN(value) ? "n/a" : String.format(Locale.ROOT, "%.2f", value);
  }

  private static String ratio(Optional<Double> r) {
    return r.map(v -> String.format(Locale.ROOT, "%.2f×", v)).orElse("–");
  }
}
