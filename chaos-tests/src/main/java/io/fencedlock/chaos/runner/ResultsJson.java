package io.fencedlock.chaos.runner;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import io.fencedlock.chaos.checker.CheckResult;
import io.fencedlock.chaos.nemesis.ScheduleJson;
import io.fencedlock.chaos.nemesis.ScheduledFault;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Renders a {@link RunReport} as the {@code results.json} object. Stateless; thread-safe. */
final class ResultsJson {
  private static final Gson GSON =
      new GsonBuilder().setPrettyPrinting().disableHtmlEscaping().create();

  private ResultsJson() {}

  static String render(RunReport r) {
    return GSON.toJson(toMap(r)) + "\n";
  }

  static Map<String, Object> toMap(RunReport r) {
    RunMetrics m = r.metrics();
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("name", r.experiment().name());
    o.put("role", r.experiment().role().name().toLowerCase(java.util.Locale.ROOT));
    o.put("expectation", r.experiment().expectation());
    o.put("seed", r.seed());
    o.put("faults", r.experiment().faults());
    o.put("backend", ChaosOptions.backendName(r.backend()));
    o.put("environment", r.environment());
    o.put("verdict", r.verdict());
    o.put("unmet", r.unmet());
    o.put("operations", m.operations());
    o.put("acquisitions", m.acquisitions());
    o.put("acquireFailures", m.acquireFailures());
    o.put("meViolations", m.meViolations());
    o.put("tokenViolations", m.tokenViolations());
    o.put("staleWritesAccepted", m.staleWritesAccepted());
    o.put("fencedViolations", m.fencedViolations());
    o.put("canaryViolations", m.canaryViolations());
    o.put("writesAccepted", m.writesAccepted());
    o.put("writesRejected", m.writesRejected());
    o.put("recoveryMillis", m.recoveryMillis());
    o.put("durationMillis", r.durationMillis());
    o.put("replay", r.replayCommand());
    o.put("seedCommand", r.seedCommand());
    o.put("schedule", r.schedule().faults().stream().map(ScheduledFault::toString).toList());
    o.put("scheduleFaults", ScheduleJson.toJson(r.schedule()));
    o.put("metrics", new TreeMap<>(m.counts()));
    o.put("checks", r.checks().results().stream().map(ResultsJson::check).toList());
    return o;
  }

  private static Map<String, Object> check(CheckResult c) {
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("checker", c.checker());
    o.put("verdict", c.verdict().name());
    o.put("violations", c.violations());
    o.put("metrics", new TreeMap<>(c.metrics()));
    o.put("details", c.details());
    return o;
  }

  /** A JSON array of several runs' objects (for a campaign summary). */
  static String renderAll(List<RunReport> reports) {
    return GSON.toJson(reports.stream().map(ResultsJson::toMap).toList()) + "\n";
  }
}
