package io.fencedlock.chaos.runner;

import com.google.gson.GsonBuilder;
import io.fencedlock.chaos.generator.FaultMix;
import io.fencedlock.chaos.runner.Experiment.Role;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The aggregate of a campaign's runs: totals, the safety figures that must be 0, every experiment's
 * row, how often each fault kind was scheduled, hit and seen to bite, which client fault windows
 * were hit, {@code :info} counts, and what it ran on (Redis binary and version, commit, clock
 * model). Rendered as Markdown for docs/ and as JSON. Immutable; thread-safe.
 *
 * @param command the command line that ran the campaign
 * @param reports every run that produced a report
 * @param errors the runs that threw instead
 * @param wallTime the campaign's duration
 * @param pinnedBinary the Redis binary every node of the campaign had to run ({@link
 *     PinnedBinary#describe()}), empty for an aggregate of stored runs, which pinned nothing
 */
record CampaignReport(
    String command,
    List<RunReport> reports,
    List<String> errors,
    Duration wallTime,
    String pinnedBinary) {

  /** Fewer clock-strobe runs than this are not required to have cut a lease short together. */
  static final int MIN_STROBE_RUNS = 5;

  CampaignReport {
    reports = List.copyOf(reports);
    errors = List.copyOf(errors);
  }

  /** A report that pinned no binary (an aggregate of stored runs). */
  CampaignReport(String command, List<RunReport> reports, List<String> errors, Duration wallTime) {
    this(command, reports, errors, wallTime, "");
  }

  long passed() {
    return reports.stream().filter(RunReport::passed).count();
  }

  /** A count summed over the runs of {@code role} (all runs when {@code role} is null). */
  long sum(Role role, String metric) {
    return reports.stream()
        .filter(r -> role == null || r.experiment().role() == role)
        .mapToLong(r -> r.metrics().get(metric))
        .sum();
  }

  /** Every count whose name starts with {@code prefix}, summed over all runs, by name. */
  Map<String, Long> countsStartingWith(String prefix) {
    Map<String, Long> sums = new TreeMap<>();
    for (RunReport r : reports) {
      r.metrics()
          .counts()
          .forEach(
              (k, v) -> {
                if (k.startsWith(prefix)) {
                  sums.merge(k.substring(prefix.length()), v, Long::sum);
                }
              });
    }
    return sums;
  }

  /** Whether every expectation held, every run ran and the campaign's own expectations held. */
  boolean passedAll() {
    return errors.isEmpty() && passed() == reports.size() && unmet().isEmpty();
  }

  /**
   * What the campaign as a whole must show: the storage runs, together, had writes of unknown
   * outcome ({@link Expectations#unknownWrites}); the client-fault runs, together, signalled
   * clients ({@link Expectations#clientsSignalled}); the clock-strobe runs, together, cut leases
   * short ({@link Expectations#mutualExclusionBroken}: how a strobe shows that it bit, which one
   * short schedule may not), when there are at least {@link #MIN_STROBE_RUNS} of them. A one-fault
   * schedule may miss any of them.
   */
  List<String> unmet() {
    List<String> unmet = new ArrayList<>();
    unmet.addAll(together(FaultMix.STORAGE, Expectations.unknownWrites(), "storage runs"));
    unmet.addAll(
        together(FaultMix.CLIENT_PROCESS, Expectations.clientsSignalled(), "client-fault runs"));
    // One strobe run in about 40 cuts no lease short; asked of fewer runs, the check would fail
    // small campaigns at random.
    if (runsOf(FaultMix.CLOCK_STROBE) >= MIN_STROBE_RUNS) {
      unmet.addAll(
          together(
              FaultMix.CLOCK_STROBE, Expectations.mutualExclusionBroken(), "clock-strobe runs"));
    }
    return unmet;
  }

  private long runsOf(FaultMix mix) {
    return reports.stream().filter(r -> r.experiment().mix() == mix).count();
  }

  /** {@code expectation} over the summed counts of the runs of {@code mix}, if there are any. */
  private List<String> together(FaultMix mix, Expectation expectation, String what) {
    List<RunReport> runs = reports.stream().filter(r -> r.experiment().mix() == mix).toList();
    if (runs.isEmpty()) {
      return List.of();
    }
    RunMetrics summed = new RunMetrics(summed(runs), Map.of());
    return expectation.unmet(summed).stream().map(u -> what + " together: " + u).toList();
  }

  private static Map<String, Long> summed(List<RunReport> runs) {
    Map<String, Long> sums = new TreeMap<>();
    for (RunReport r : runs) {
      r.metrics().counts().forEach((k, v) -> sums.merge(k, v, Long::sum));
    }
    return sums;
  }

  String markdown() {
    StringBuilder b = new StringBuilder("# Chaos campaign report\n\n");
    b.append("Reproduce: `").append(command).append("`\n\n");
    environment(b);
    b.append("\n## Totals\n\n");
    b.append("| | count |\n|---|---|\n");
    row(b, "schedules run", reports.size() + errors.size());
    row(b, "expectations held (PASS)", passed());
    row(b, "expectations not held (FAIL)", reports.size() - passed());
    row(b, "runs that could not run (errors)", errors.size());
    if (wallTime.isZero()) {
      Duration runs =
          Duration.ofMillis(reports.stream().mapToLong(RunReport::durationMillis).sum());
      row(b, "wall time", "not recorded (aggregated afterwards); the runs took " + minutes(runs));
    } else {
      row(b, "wall time", minutes(wallTime));
    }
    row(b, "operations", sum(null, RunMetrics.OPERATIONS));
    row(b, "acquisitions", sum(null, RunMetrics.ACQUISITIONS));
    row(b, "fenced writes accepted", sum(null, RunMetrics.WRITES_ACCEPTED));
    row(b, "fenced writes rejected as stale", sum(null, RunMetrics.WRITES_REJECTED));
    row(b, "fenced writes of unknown outcome (`:info`)", sum(null, RunMetrics.WRITES_UNKNOWN));
    row(b, "all `:info` operations", sum(null, RunMetrics.INFO_OPS));
    row(b, "storage-service restarts observed by clients", sum(null, RunMetrics.STORAGE_RESTARTS));
    row(
        b,
        "re-admissions (of which by the high-water mark)",
        sum(null, RunMetrics.READMISSIONS)
            + " ("
            + sum(null, RunMetrics.READMISSIONS_BY_HIGH_WATER)
            + ")");
    b.append("\n## Safety experiments: what must be 0\n\n");
    b.append("| | count |\n|---|---|\n");
    row(
        b,
        "safety schedules",
        reports.stream().filter(r -> r.experiment().role() == Role.SAFETY).count());
    // clock-strobe is a safety experiment for tokens and fencing that only reports mutual
    // exclusion (a clock jump ends leases early by design): its overlaps are shown apart.
    long strobe =
        reports.stream()
            .filter(r -> r.experiment().mix() == FaultMix.CLOCK_STROBE)
            .mapToLong(r -> r.metrics().get(RunMetrics.ME))
            .sum();
    row(
        b,
        "mutual-exclusion violations (besides clock-strobe's, which each run reports, not asserts)",
        sum(Role.SAFETY, RunMetrics.ME) - strobe + " (clock-strobe: " + strobe + ")");
    row(b, "token violations", sum(Role.SAFETY, RunMetrics.TOKENS));
    row(b, "stale writes accepted", sum(Role.SAFETY, RunMetrics.STALE_ACCEPTED));
    row(b, "fenced-object violations", sum(Role.SAFETY, RunMetrics.FENCED_VIOLATIONS));
    row(
        b,
        "list-append anomalies on the fenced object",
        sum(Role.SAFETY, RunMetrics.LIST_APPEND_FENCED));
    row(b, "highest token lost by the store", sum(Role.SAFETY, RunMetrics.DURABILITY));
    b.append("\n## Per experiment\n\n");
    b.append(
        "| experiment | role | schedules | PASS | FAIL | ops | ME viol. | token viol. | stale"
            + " accepted | rejected | `:info` writes | canary viol. | list-append canary |"
            + " durability viol. |\n");
    b.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (Map.Entry<String, List<RunReport>> e : byExperiment().entrySet()) {
      List<RunReport> runs = e.getValue();
      long pass = runs.stream().filter(RunReport::passed).count();
      b.append(
          String.format(
              "| %s | %s | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d |%n",
              e.getKey(),
              runs.get(0).experiment().role().name().toLowerCase(java.util.Locale.ROOT),
              runs.size(),
              pass,
              runs.size() - pass,
              total(runs, RunMetrics.OPERATIONS),
              total(runs, RunMetrics.ME),
              total(runs, RunMetrics.TOKENS),
              total(runs, RunMetrics.STALE_ACCEPTED),
              total(runs, RunMetrics.WRITES_REJECTED),
              total(runs, RunMetrics.WRITES_UNKNOWN),
              total(runs, RunMetrics.CANARY),
              total(runs, RunMetrics.LIST_APPEND_CANARY),
              total(runs, RunMetrics.DURABILITY)));
    }
    powerLoss(b);
    b.append("\n## Fault coverage\n\n");
    b.append(
        "Faults applied by kind; *bit*: the clients saw errors or timeouts inside the fault's"
            + " window; *missed*: they did not (counted only for kinds that must show); *hit*: a"
            + " targeted client fault reached its window.\n\n");
    b.append(
        "| fault kind | applied | bit | missed | hit | not hit |\n|---|---|---|---|---|---|\n");
    Map<String, Long> applied = countsStartingWith("fault.");
    Map<String, Long> all = countsStartingWith("");
    for (String kind : new TreeSet<>(applied.keySet())) {
      b.append(
          String.format(
              "| %s | %d | %d | %d | %d | %d |%n",
              kind,
              applied.get(kind),
              all.getOrDefault(kind + ".bit", 0L),
              all.getOrDefault(kind + ".missed", 0L),
              all.getOrDefault(kind + ".hit", 0L),
              all.getOrDefault(kind + ".notHit", 0L)));
    }
    b.append("\nClient signals by window (signal.window: count):\n\n");
    countsStartingWith("signal.")
        .forEach((k, v) -> b.append("- ").append(k).append(": ").append(v).append('\n'));
    b.append("\n## Campaign-wide expectations\n\n");
    b.append(
        unmet().isEmpty()
            ? "Held: the storage runs had writes of unknown outcome; the client-fault runs"
                + " signalled clients; the clock-strobe runs cut leases short (mutual-exclusion"
                + " overlaps).\n"
            : "");
    unmet().forEach(u -> b.append("- NOT HELD: ").append(u).append('\n'));
    b.append("\n## Runs whose expectation did not hold\n\n");
    List<RunReport> failed = reports.stream().filter(r -> !r.passed()).toList();
    if (failed.isEmpty()) {
      b.append("None.\n");
    }
    for (RunReport r : failed) {
      b.append("- ")
          .append(r.experiment().name())
          .append(" seed ")
          .append(r.seed())
          .append(": ")
          .append(String.join("; ", r.unmet()))
          .append(" (`")
          .append(r.seedCommand())
          .append("`)\n");
    }
    b.append("\n## Runs that could not run\n\n");
    if (errors.isEmpty()) {
      b.append("None.\n");
    }
    errors.forEach(e -> b.append("- ").append(e).append('\n'));
    return b.toString();
  }

  /**
   * What the power losses did, run by run: whether a counter rolled back, and whether the runs with
   * token violations are among those (the mechanism: the init marker survives, so the node is not
   * excluded, while its fence counters go back).
   */
  private void powerLoss(StringBuilder b) {
    List<RunReport> runs =
        reports.stream().filter(r -> r.experiment().mix() == FaultMix.POWER_LOSS).toList();
    if (runs.isEmpty()) {
      return;
    }
    long rolledBack = runs.stream().filter(r -> rollbacks(r) > 0).count();
    List<RunReport> broken =
        runs.stream().filter(r -> r.metrics().get(RunMetrics.TOKENS) > 0).toList();
    long brokenRolledBack = broken.stream().filter(r -> rollbacks(r) > 0).count();
    long overlaps = runs.stream().filter(r -> r.metrics().get(RunMetrics.ME) > 0).count();
    b.append("\n## Power loss\n\n");
    b.append("| | count |\n|---|---|\n");
    row(b, "power-loss runs", runs.size());
    row(b, "bytes of append-only file cut", total(runs, RunMetrics.POWER_LOSS_BYTES));
    row(
        b,
        "counters rolled back (fence counters and high-water marks)",
        total(runs, RunMetrics.POWER_LOSS_ROLLBACKS));
    row(b, "runs in which a counter rolled back", rolledBack);
    row(
        b,
        "power-lost nodes whose counters could not be read (not counted above)",
        total(runs, RunMetrics.POWER_LOSS_UNREAD));
    row(
        b,
        "runs with token violations (of which a counter rolled back)",
        broken.size() + " (" + brokenRolledBack + ")");
    row(b, "runs with mutual-exclusion overlaps", overlaps);
  }

  private static long rollbacks(RunReport r) {
    return r.metrics().get(RunMetrics.POWER_LOSS_ROLLBACKS);
  }

  private void environment(StringBuilder b) {
    Map<String, Long> models = new TreeMap<>();
    TreeSet<String> redis = new TreeSet<>();
    TreeSet<String> commits = new TreeSet<>();
    for (RunReport r : reports) {
      RunEnvironment env = r.environment();
      models.merge(env.clockModel(), 1L, Long::sum);
      redis.add(
          env.redisVersion() + " (" + env.redisBinary() + ", sha256 " + env.redisSha256() + "…)");
      commits.add(env.commit());
    }
    b.append("- Commit: ").append(String.join(", ", commits)).append('\n');
    b.append("- Redis: ").append(String.join(", ", redis)).append('\n');
    if (!pinnedBinary.isEmpty()) {
      b.append("- Pinned for every node (a node running another binary fails its run): ")
          .append(pinnedBinary)
          .append('\n');
    }
    b.append("- Clock model, runs: ").append(models).append('\n');
    b.append("- Machine: ")
        .append(Runtime.getRuntime().availableProcessors())
        .append(" cores visible to the JVM\n");
  }

  private Map<String, List<RunReport>> byExperiment() {
    Map<String, List<RunReport>> by = new LinkedHashMap<>();
    for (RunReport r : reports) {
      by.computeIfAbsent(r.experiment().name(), k -> new ArrayList<>()).add(r);
    }
    return by;
  }

  private static long total(List<RunReport> runs, String metric) {
    return runs.stream().mapToLong(r -> r.metrics().get(metric)).sum();
  }

  private static String minutes(Duration d) {
    return d.toMinutes() + " min " + d.toSecondsPart() + " s";
  }

  private static void row(StringBuilder b, String name, Object value) {
    b.append("| ").append(name).append(" | ").append(value).append(" |\n");
  }

  private static Map<String, Object> brief(RunReport r) {
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("name", r.experiment().name());
    o.put("seed", r.seed());
    o.put("verdict", r.verdict());
    o.put("unmet", r.unmet());
    o.put("results", r.dir().resolve("results.json").toString());
    o.put("metrics", new TreeMap<>(r.metrics().counts()));
    return o;
  }

  /** The totals and per-run results as JSON (the per-run objects are {@code results.json}'s). */
  String json() {
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("command", command);
    o.put("schedules", reports.size() + errors.size());
    o.put("passed", passed());
    o.put("campaignUnmet", unmet());
    o.put("errors", errors);
    o.put("wallTimeSeconds", wallTime.toSeconds());
    o.put("pinnedRedisBinary", pinnedBinary);
    o.put("faultsApplied", countsStartingWith("fault."));
    o.put("signals", countsStartingWith("signal."));
    Map<String, Long> safety = new LinkedHashMap<>();
    for (String m :
        List.of(
            RunMetrics.ME,
            RunMetrics.TOKENS,
            RunMetrics.STALE_ACCEPTED,
            RunMetrics.FENCED_VIOLATIONS,
            RunMetrics.DURABILITY)) {
      safety.put(m, sum(Role.SAFETY, m));
    }
    o.put("safetyViolations", safety);
    o.put("writesUnknown", sum(null, RunMetrics.WRITES_UNKNOWN));
    o.put("runs", reports.stream().map(CampaignReport::brief).toList());
    return new GsonBuilder().setPrettyPrinting().disableHtmlEscaping().create().toJson(o) + "\n";
  }
}
