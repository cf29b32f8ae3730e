package io.fencedlock.chaos.runner;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.fencedlock.chaos.checker.CompositeResult;
import io.fencedlock.chaos.checker.Verdict;
import io.fencedlock.testkit.Backend;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Run reports read back from the {@code results.json} files under a directory, so that a campaign's
 * aggregate can be written from what its runs left on disk ({@code ./fencedlock chaos --report
 * DIR}): after a campaign that was stopped early, or to aggregate several. The checkers' details
 * are not restored (only their verdicts and counts). Stateless.
 */
final class StoredReports {
  private StoredReports() {}

  /** Every run under {@code root}, ordered by experiment, then seed. */
  static List<RunReport> under(Path root) {
    List<RunReport> reports = new ArrayList<>();
    try (Stream<Path> files = Files.walk(root, 3)) {
      for (Path f : files.filter(p -> p.getFileName().toString().equals("results.json")).toList()) {
        reports.add(read(f));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read runs under " + root, e);
    }
    reports.sort(
        Comparator.comparing((RunReport r) -> position(r.experiment().name()))
            .thenComparingLong(RunReport::seed));
    return reports;
  }

  private static int position(String name) {
    return Experiments.all().stream().map(Experiment::name).toList().indexOf(name);
  }

  /** The run a {@code results.json} describes. */
  static RunReport read(Path resultsJson) {
    String text;
    try {
      text = Files.readString(resultsJson, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + resultsJson, e);
    }
    RecordedRun run = RecordedRun.parse(text);
    JsonObject o = JsonParser.parseString(text).getAsJsonObject();
    Map<String, Long> counts = new HashMap<>();
    o.getAsJsonObject("metrics")
        .entrySet()
        .forEach(e -> counts.put(e.getKey(), e.getValue().getAsLong()));
    Map<String, Verdict> verdicts = new HashMap<>();
    for (JsonElement c : o.getAsJsonArray("checks")) {
      JsonObject check = c.getAsJsonObject();
      verdicts.put(
          check.get("checker").getAsString(), Verdict.valueOf(check.get("verdict").getAsString()));
    }
    List<String> unmet = new ArrayList<>();
    o.getAsJsonArray("unmet").forEach(u -> unmet.add(u.getAsString()));
    JsonObject env = o.getAsJsonObject("environment");
    return new RunReport(
        run.experiment(),
        run.seed(),
        Backend.valueOf(o.get("backend").getAsString().toUpperCase(Locale.ROOT)),
        run.schedule(),
        new RunMetrics(counts, verdicts),
        new CompositeResult(Verdict.TRUE, List.of()),
        unmet,
        o.get("durationMillis").getAsLong(),
        resultsJson.getParent(),
        new RunEnvironment(
            env.get("redisVersion").getAsString(),
            env.get("redisBinary").getAsString(),
            env.get("redisSha256").getAsString(),
            env.get("commit").getAsString(),
            env.get("clockModel").getAsString()));
  }
}
