package io.fencedlock.bench;

import java.io.PrintStream;
import java.util.Locale;

/** The progress line on stderr: which run, how many are left, and an estimate of the rest. */
final class Progress {
  private final PrintStream out;
  private final int total;
  private final long startedAt = System.nanoTime();
  private int done;

  Progress(PrintStream out, int total) {
    this.out = out;
    this.total = total;
  }

  void starting(String scenario, String system, int rep, int reps) {
    double elapsed = (System.nanoTime() - startedAt) / 1e9;
    String eta =
        done == 0 ? "?" : String.format(Locale.ROOT, "%.0f s", elapsed / done * (total - done));
    out.printf(
        Locale.ROOT,
        "[%3d/%d] scenario %s  %-18s rep %d/%d  elapsed %.0f s, left ~%s%n",
        done + 1,
        total,
        scenario,
        system,
        rep + 1,
        reps,
        elapsed,
        eta);
    out.flush();
  }

  void finished(Stats stats, String firstError) {
    finished("", stats, firstError);
  }

  /** The same for one of several systems measured together, named. */
  void finished(String system, Stats stats, String firstError) {
    done++;
    out.printf(
        Locale.ROOT,
        "         %sp50 %.1f us, p99 %.1f us, %.0f ops/s%s%n",
        system.isEmpty() ? "" : String.format(Locale.ROOT, "%-18s ", system),
        stats.p50(),
        stats.p99(),
        stats.opsPerSec(),
        stats.errors() > 0 ? ", " + stats.errors() + " errors, first: " + firstError : "");
  }
}
