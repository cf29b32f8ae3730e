package io.fencedlock.bench;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The four scenarios of issue 5 over one set of Redis nodes: 1 to 3 on direct loopback
 * links, 4 through the fault proxy with latency on every link.
 */
final class BenchSuite {
  static final long LATENCY_MS = 1;
  /** Toxiproxy takes whole milliseconds, so the ± 0.2 ms of issue 5 cannot be set; see docs. */
  static final long JITTER_MS = 0;
  static final String LINKS = "fault proxy, latency toxic downstream " + LATENCY_MS + " ms ± " + JITTER_MS + " ms";

  /** What a run produced. */
  record Outcome(Map<String, ScenarioResult> scenarios, List<Target> targets) {}

  private final BenchPlan plan;
  private final PrintStream progressOut;

  BenchSuite(BenchPlan plan, PrintStream progressOut) {
    this.plan = plan;
    this.progressOut = progressOut;
  }

  Outcome run(List<String> uris) {
    Scenario s1 = new UncontendedScenario("1", "one client, uncontended: acquire + release");
    Scenario s2 = new ThroughputScenario();
    Scenario s3 = new HandoffScenario();
    Scenario s4 = new UncontendedScenario("4", "scenario 1 with " + LATENCY_MS + " ms ± " + JITTER_MS
        + " ms latency on every link (fault proxy)");
    Map<String, ScenarioResult> results = new LinkedHashMap<>();
    try (Systems direct = Systems.open(uris)) {
      int total = BenchRunner.runs(plan, List.of(s1, s2, s3, s4), direct.all());
      BenchRunner runner = new BenchRunner(plan, new Progress(progressOut, total));
      for (Scenario s : List.of(s1, s2, s3)) {
        results.put(s.id(), runner.run(s, direct.all()));
      }
      try (LatencyLinks links = LatencyLinks.start(uris, LATENCY_MS, JITTER_MS);
          Systems proxied = Systems.open(links.uris())) {
        results.put(s4.id(), runner.run(s4, proxied.all()));
      }
    }
    return new Outcome(results, Targets.check(results));
  }
}
