package io.fencedlock.cli.demo;

import io.fencedlock.cli.DemoEnvironment;
import java.io.PrintStream;
import java.nio.file.Path;

/**
 * {@code ./fencedlock demo}: starts five local Redis nodes and the fenced storage service, plays
 * {@link KleppmannScenario} fenced and unfenced, prints both timelines and writes the HTML report.
 * Exit code 0 if both runs show the expected outcome (fenced: the stale write is rejected and
 * client 2's value survives; unfenced: client 2's update is lost), 1 if not or on an error, 2 for
 * bad options.
 */
public final class DemoMain {
  private DemoMain() {}

  /** Entry point. */
  public static void main(String[] args) {
    DemoArgs parsed;
    try {
      parsed = DemoArgs.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("fencedlock demo: " + e.getMessage());
      System.err.print(DemoArgs.USAGE);
      System.exit(2);
      return;
    }
    if (parsed.help()) {
      System.out.print(DemoArgs.USAGE);
      return;
    }
    System.exit(run(parsed.report(), System.out, System.err));
  }

  /** Runs the demo, writing the report to {@code report}; returns the exit code. */
  static int run(Path report, PrintStream out, PrintStream err) {
    out.println(
        "Starting "
            + DemoEnvironment.NODES
            + " Redis nodes and the fenced storage service (SQLite in a temp dir) ...");
    DemoResult result;
    try (DemoEnvironment env = DemoEnvironment.start(0)) {
      out.println("Redis nodes:     " + String.join(" ", env.nodeUris()));
      out.println("storage service: " + env.storageUrl());
      out.println(
          "Client 1 acquires, pauses until its lease has run out (TTL "
              + KleppmannScenario.DEFAULT_TTL.toMillis()
              + " ms), client 2 acquires and writes,"
              + " client 1 wakes and writes late.");
      out.println();
      KleppmannScenario scenario =
          new KleppmannScenario(env.nodeUris(), env.storageUrl(), KleppmannScenario.DEFAULT_TTL);
      result = scenario.run(run -> out.println(ConsoleReport.render(run)));
      HtmlReport.write(result, report);
    } catch (RuntimeException e) {
      err.println("fencedlock demo: failed: " + e);
      e.printStackTrace(err);
      return 1;
    }
    out.println("report: " + report.toAbsolutePath());
    if (result.asExpected()) {
      out.println("demo OK: fencing rejected the stale write; without it the update was lost.");
      return 0;
    }
    out.println("demo FAILED: the outcome was not as expected (see the verdicts above).");
    return 1;
  }
}
