package io.fencedlock.bench;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The scenarios over one set of Redis nodes: 1, 1-many, 1-idle, 2 and 3 on direct loopback links
 * (issues 5 and 20), 4 through the fault proxy with latency on every link.
 */
final class BenchSuite {
  /**
   * Issue 5's 1 ms ± 0.2 ms; the sub-millisecond part needs the fault proxy's extension attributes.
   */
  static final long LATENCY_MICROS = 1_000;

  static final long JITTER_MICROS = 200;
  static final String LINK_LATENCY =
      millis(LATENCY_MICROS) + " ms ± " + millis(JITTER_MICROS) + " ms";
  static final String LINKS = "fault proxy, latency toxic downstream " + LINK_LATENCY;

  /** What a run produced. */
  record Outcome(Map<String, ScenarioResult> scenarios, List<Target> targets) {}

  private final BenchPlan plan;
  private final PrintStream progressOut;
  private final ServerCpu servers;

  /** Measuring {@code servers}' CPU time beside the client's in every scenario. */
  BenchSuite(BenchPlan plan, PrintStream progressOut, ServerCpu servers) {
    this.plan = plan;
    this.progressOut = progressOut;
    this.servers = servers;
  }

  Outcome run(List<String> uris) {
    Scenario s1 =
        new UncontendedScenario("1", "one client, uncontended: acquire + release", 1, servers);
    Scenario s1many =
        new UncontendedScenario(
            "1-many",
            "one client cycling over "
                + UncontendedScenario.MANY
                + " resources, uncontended: acquire + release",
            UncontendedScenario.MANY,
            servers);
    Scenario s1idle = UncontendedScenario.afterIdle(servers);
    Scenario s2 = new ThroughputScenario(servers);
    Scenario s3 = new HandoffScenario(servers);
    Scenario s4 =
        new UncontendedScenario(
            "4",
            "scenario 1 with " + LINK_LATENCY + " latency on every link (fault proxy)",
            1,
            servers);
    Map<String, ScenarioResult> results = new LinkedHashMap<>();
    try (Systems direct = Systems.open(uris)) {
      int total = BenchRunner.runs(plan, List.of(s1, s1many, s1idle, s2, s3, s4), direct.all());
      BenchRunner runner = new BenchRunner(plan, new Progress(progressOut, total));
      for (Scenario s : List.of(s1, s1many, s1idle, s2, s3)) {
        results.put(s.id(), runner.run(s, direct.all()));
      }
      try (LatencyLinks links = LatencyLinks.start(uris, LATENCY_MICROS, JITTER_MICROS);
          Systems proxied = Systems.open(links.uris())) {
        results.put(s4.id(), runner.run(s4, proxied.all()));
      }
    }
    return new Outcome(results, Targets.check(results));
  }

  /** Microseconds as milliseconds, without trailing zeros: 1000 → "1", 200 → "0.2". */
  static String millis(long micros) {
    return java.math.BigDecimal.valueOf(micros, 3).stripTrailingZeros().toPlainString();
  }
}
