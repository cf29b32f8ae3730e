package io.fencedlock.chaos.runner;

import io.fencedlock.testkit.Backend;
import io.fencedlock.testkit.DockerEngine;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code ./fencedlock chaos}: runs the experiments, prints a progress line while each runs and a
 * summary table at the end, writes every run's files and a campaign summary, and exits 0 only if
 * every expectation held.
 */
public final class ChaosMain {
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
