package io.fencedlock.chaos.runner;

import io.fencedlock.chaos.history.JsonLines;
import io.fencedlock.testkit.Backend;
import io.fencedlock.testkit.DockerEngine;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code ./fencedlock chaos}: runs the experiments, prints a progress line while each runs and a
 * summary table at the end, writes every run's files and a campaign summary, and exits 0 only if
 * every expectation held.
 */
public final class ChaosMain {
  /** How many candidate runs a shrink may take. */
  private static final int SHRINK_RUNS = 30;

  private ChaosMain() {}

  public static void main(String[] args) {
    quietLogging();
    PrintStream out = System.out;
    ChaosOptions options;
    try {
      options = ChaosOptions.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("fencedlock chaos: " + e.getMessage());
      System.err.print(ChaosOptions.usage());
      System.exit(2);
      return;
    }
    if (options.help()) {
      out.print(ChaosOptions.usage());
      return;
    }
    if (options.backend() == Backend.CONTAINER && !DockerEngine.isAvailable()) {
      System.err.println(
          "fencedlock chaos: --backend container needs a Docker engine, and "
              + DockerEngine.unavailableReason().orElse("none answers"));
      System.exit(2);
      return;
    }
    if (options.replay().isPresent()) {
      System.exit(replay(options, out) ? 0 : 1);
      return;
    }
    if (options.recheck().isPresent()) {
      System.exit(recheck(options.recheck().orElseThrow(), out) ? 0 : 1);
      return;
    }
    if (options.shrink().isPresent()) {
      shrink(options, out);
      System.exit(0);
      return;
    }
    if (options.report().isPresent()) {
      Path dir = options.report().orElseThrow();
      CampaignReport report =
          new CampaignReport(
              "./fencedlock chaos "
                  + String.join(" ", args)
                  + " (aggregate of the runs in "
                  + dir
                  + ")",
              StoredReports.under(dir),
              List.of(),
              Duration.ZERO);
      writeCampaign(options.out(), report, out);
      System.exit(report.passedAll() ? 0 : 1);
      return;
    }
    if (options.campaign() > 0) {
      System.exit(campaign(options, args, out) ? 0 : 1);
      return;
    }
    List<RunReport> reports = run(options, out);
    out.println();
    out.print(SummaryTable.text(reports));
    Path summary = options.out().resolve("summary-" + System.currentTimeMillis() + ".md");
    RunFiles.writeString(
        summary,
        "Command: ./fencedlock chaos "
            + String.join(" ", args)
            + "\n\nNodes on: "
            + ChaosOptions.backendName(options.backend())
            + "\n\n"
            + SummaryTable.markdown(reports));
    options.out().toFile().mkdirs();
    out.println(
        "\nResults: "
            + options.out().toAbsolutePath()
            + " (summary "
            + summary.getFileName()
            + ")");
    System.exit(reports.stream().allMatch(RunReport::passed) ? 0 : 1);
  }

  /**
   * Keeps the terminal for progress and results: library logs only from WARN, Lettuce's reconnect
   * chatter only from ERROR.
   */
  private static void quietLogging() {
    System.setProperty(
        "org.slf4j.simpleLogger.defaultLogLevel",
        System.getProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn"));
    System.setProperty(
        "org.slf4j.simpleLogger.log.io.lettuce",
        System.getProperty("org.slf4j.simpleLogger.log.io.lettuce", "error"));
  }

  private static boolean replay(ChaosOptions options, PrintStream out) {
    RecordedRun recorded = RecordedRun.read(options.replay().orElseThrow());
    RunReport report =
        new ExperimentRunner(options.out(), out, options.backend())
            .run(recorded.experiment(), recorded.seed(), recorded.schedule());
    out.println();
    out.print(SummaryTable.text(List.of(report)));
    return report.passed();
  }

  /**
   * Checks a recorded history again with this version's checkers and the experiment's expectation,
   * e.g. after a checker was corrected; prints every checker's verdict and the outcome. Starts
   * nothing.
   */
  private static boolean recheck(Path resultsJson, PrintStream out) {
    RecordedRun recorded = RecordedRun.read(resultsJson);
    Path historyFile = resultsJson.resolveSibling("history.jsonl");
    Session.Checked checked = Session.check(recorded.experiment(), JsonLines.read(historyFile));
    checked.checks().results().forEach(c -> out.printf("  %-22s %s%n", c.checker(), c.verdict()));
    checked.unmet().forEach(u -> out.println("  unmet: " + u));
    out.printf(
        "%s seed %d, rechecked from %s: %s (recorded: %s)%n",
        recorded.experiment().name(),
        recorded.seed(),
        historyFile,
        checked.unmet().isEmpty() ? "PASS" : "FAIL",
        recorded.failed() ? "FAIL" : "PASS");
    return checked.unmet().isEmpty();
  }

  /**
   * Shrinks a failing run's schedule, keeping the checkers' violations it showed ({@link
   * RecordedRun#failsAgainIn}); prints the smallest one and the run that showed it.
   */
  private static void shrink(ChaosOptions options, PrintStream out) {
    RecordedRun recorded = RecordedRun.read(options.shrink().orElseThrow());
    if (!recorded.failed() && recorded.violated().isEmpty()) {
      throw new IllegalArgumentException(
          options.shrink().orElseThrow()
              + " passed and no checker found a violation: there is nothing to shrink");
    }
    ExperimentRunner runner = new ExperimentRunner(options.out(), out, options.backend());
    Path[] lastFailing = {options.shrink().orElseThrow()};
    Shrinker.Result result =
        Shrinker.shrink(
            recorded.schedule(),
            candidate -> {
              RunReport r = runner.run(recorded.experiment(), recorded.seed(), candidate);
              boolean fails = recorded.failsAgainIn(r);
              if (fails) {
                lastFailing[0] = r.dir().resolve("results.json");
              }
              return fails;
            },
            SHRINK_RUNS);
    out.printf(
        "%nshrunk %d fault(s) to %d in %d run(s), keeping %s: %s%nreplay: ./fencedlock chaos"
            + " --replay %s%n",
        recorded.schedule().faults().size(),
        result.schedule().faults().size(),
        result.runs(),
        (recorded.failed() ? "the unmet expectation" : "")
            + (recorded.failed() && !recorded.violated().isEmpty() ? " and " : "")
            + (recorded.violated().isEmpty() ? "" : "the violations of " + recorded.violated()),
        result.schedule(),
        lastFailing[0]);
  }

  private static boolean campaign(ChaosOptions options, String[] args, PrintStream out) {
    List<Experiment> experiments = new ArrayList<>();
    for (Experiment e : options.experiments()) {
      experiments.add(
          options.faults().isPresent() ? e.withFaults((int) options.faults().getAsLong()) : e);
    }
    Map<Experiment, Integer> shares = Campaign.shares(experiments, options.campaign());
    out.printf(
        "chaos campaign: %d schedule(s) over %d experiment(s), first seed %d: %s%n",
        options.campaign(),
        experiments.size(),
        options.seed(),
        shares.entrySet().stream().map(e -> e.getKey().name() + "=" + e.getValue()).toList());
    long began = System.nanoTime();
    Campaign campaign = new Campaign(options.backend(), options.out(), out);
    out.println("every node must run " + campaign.pinnedDescription());
    List<RunReport> reports = campaign.run(shares, options.seed(), options.parallel());
    List<String> command = new ArrayList<>(List.of(args));
    if (!command.contains("--seed")) {
      command.addAll(List.of("--seed", Long.toString(options.seed())));
    }
    CampaignReport report =
        new CampaignReport(
            "./fencedlock chaos " + String.join(" ", command),
            reports,
            campaign.errors(),
            Duration.ofNanos(System.nanoTime() - began),
            campaign.pinnedDescription());
    writeCampaign(options.out(), report, out);
    return report.passedAll();
  }

  private static void writeCampaign(Path dir, CampaignReport report, PrintStream out) {
    String stamp = Long.toString(System.currentTimeMillis());
    Path md = dir.resolve("campaign-" + stamp + ".md");
    dir.toFile().mkdirs();
    RunFiles.writeString(md, report.markdown());
    RunFiles.writeString(dir.resolve("campaign-" + stamp + ".json"), report.json());
    out.println();
    out.print(report.markdown());
    out.println("\nCampaign report: " + md.toAbsolutePath());
  }

  static List<RunReport> run(ChaosOptions options, PrintStream out) {
    ExperimentRunner runner = new ExperimentRunner(options.out(), out, options.backend());
    List<RunReport> reports = new ArrayList<>();
    out.printf(
        "chaos: %d experiment(s) x %d schedule(s), first seed %d, nodes on %s%n",
        options.experiments().size(),
        options.schedules(),
        options.seed(),
        ChaosOptions.backendName(options.backend()));
    for (Experiment e : options.experiments()) {
      Experiment exp =
          options.faults().isPresent() ? e.withFaults((int) options.faults().getAsLong()) : e;
      for (int i = 0; i < options.schedules(); i++) {
        reports.add(runner.run(exp, options.seed() + i));
      }
    }
    return reports;
  }
}
