package io.fencedlock.chaos.runner;

import java.util.List;

/** Formats runs as a fixed-width table for the terminal and as Markdown. Stateless. */
final class SummaryTable {
  private static final String ROW = "%-16s %-21s %6s %6s %5s %6s %6s %6s %6s %7s %s%n";

  private SummaryTable() {}

  static String text(List<RunReport> reports) {
    StringBuilder b =
        new StringBuilder(
            String.format(
                ROW,
                "experiment",
                "seed",
                "ops",
                "acq",
                "ME",
                "token",
                "stale",
                "rejct",
                "canary",
                "recov",
                "verdict"));
    for (RunReport r : reports) {
      RunMetrics m = r.metrics();
      b.append(
          String.format(
              ROW,
              r.experiment().name(),
              r.seed(),
              m.operations(),
              m.acquisitions(),
              m.meViolations(),
              m.tokenViolations(),
              m.staleWritesAccepted(),
              m.writesRejected(),
              m.canaryViolations(),
              m.recoveryMillis() < 0 ? "-" : m.recoveryMillis() + "ms",
              r.verdict()));
    }
    return b.toString();
  }

  static String markdown(List<RunReport> reports) {
    StringBuilder b =
        new StringBuilder(
            "| experiment | seed | ops | acquisitions | ME viol. | token viol. | stale accepted |"
                + " writes rejected | canary viol. | recovery | verdict |\n"
                + "|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (RunReport r : reports) {
      RunMetrics m = r.metrics();
      b.append(
          String.format(
              "| %s | %d | %d | %d | %d | %d | %d | %d | %d | %s | %s |%n",
              r.experiment().name(),
              r.seed(),
              m.operations(),
              m.acquisitions(),
              m.meViolations(),
              m.tokenViolations(),
              m.staleWritesAccepted(),
              m.writesRejected(),
              m.canaryViolations(),
              m.recoveryMillis() < 0 ? "-" : m.recoveryMillis() + " ms",
              r.verdict()));
    }
    return b.toString();
  }
}
