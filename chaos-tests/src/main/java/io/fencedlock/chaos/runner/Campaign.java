package io.fencedlock.chaos.runner;

import io.fencedlock.chaos.checker.Verdict;
import io.fencedlock.chaos.nemesis.Fault;
import io.fencedlock.chaos.nemesis.FaultSchedule;
import io.fencedlock.testkit.Backend;
import io.fencedlock.testkit.Persistence;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Many schedules across experiments, as cheaply as the machine allows: each experiment's schedules
 * run one after another in one {@link Session} (one cluster and one set of client processes for all
 * of them, reopened only if a run leaves it broken, or for every run of an experiment that needs a
 * fresh cluster), and passing runs keep only their {@code results.json}. A run that throws is
 * recorded as an error and the campaign goes on. The Redis binary is pinned at the campaign's start
 * ({@link PinnedBinary}): a session whose nodes run another binary does not start, and its runs are
 * recorded as errors, which fail the campaign. Not thread-safe.
 */
final class Campaign {
  /**
   * Experiments that need a fresh cluster per run cost a cluster start each (about 25 s against 4 s
   * for a run in a running session, measured on the 2-core development machine): a tenth share.
   */
  static final int FRESH_CLUSTER_SHARE_DIVISOR = 10;

  private final Backend backend;
  private final Path out;
  private final PrintStream console;
  private final PinnedBinary pinned;
  private final List<String> errors = new ArrayList<>();

  /**
   * A campaign that pins the binary the test kit resolves now, at its start; on containers, none
   * (their nodes run their image's binary, which a pin cannot check).
   */
  Campaign(Backend backend, Path out, PrintStream console) {
    this(backend, out, console, backend == Backend.PROCESS ? PinnedBinary.resolve() : null);
  }

  /** A campaign whose every node must run {@code pinned} (nothing is checked if null). */
  Campaign(Backend backend, Path out, PrintStream console, PinnedBinary pinned) {
    this.backend = backend;
    this.out = out;
    this.console = console;
    this.pinned = pinned;
  }

  /** What every node of this campaign must run, in words for the console and the report. */
  String pinnedDescription() {
    return pinned == null
        ? "not pinned: nodes in containers run their image's binary (docs/analysis.md §11)"
        : pinned.describe();
  }

  /**
   * How many schedules each experiment gets out of {@code total}: an equal share, a tenth of it for
   * those that need a fresh cluster per run, at least one each; the shares add up to {@code total}
   * when {@code total} is at least the number of experiments.
   */
  static Map<Experiment, Integer> shares(List<Experiment> experiments, int total) {
    double weightSum = 0;
    for (Experiment e : experiments) {
      weightSum += weight(e);
    }
    Map<Experiment, Integer> shares = new LinkedHashMap<>();
    int given = 0;
    for (Experiment e : experiments) {
      int n = Math.max(1, (int) Math.floor(total * weight(e) / weightSum));
      shares.put(e, n);
      given += n;
    }
    // Hand out what rounding left, one each, to the cheap experiments first.
    for (int i = 0; given < total; i = (i + 1) % experiments.size()) {
      Experiment e = experiments.get(i);
      if (!e.freshCluster() || experiments.stream().allMatch(Experiment::freshCluster)) {
        shares.merge(e, 1, Integer::sum);
        given++;
      }
    }
    return shares;
  }

  private static double weight(Experiment e) {
    return e.freshCluster() ? 1.0 / FRESH_CLUSTER_SHARE_DIVISOR : 1.0;
  }

  /**
   * Runs the shares, {@code parallel} experiments at a time (each in a session of its own);
   * schedule k of the campaign (counting from 0, in share order) uses seed {@code seed + k}.
   * Returns the reports in share order.
   */
  List<RunReport> run(Map<Experiment, Integer> shares, long seed, int parallel) {
    ExecutorService pool =
        Executors.newFixedThreadPool(
            parallel,
            r -> {
              Thread t = new Thread(r, "campaign");
              t.setDaemon(true);
              return t;
            });
    try {
      List<Future<List<RunReport>>> parts = new ArrayList<>();
      long first = seed;
      for (Map.Entry<Experiment, Integer> share : shares.entrySet()) {
        long from = first;
        parts.add(pool.submit(() -> runShare(share.getKey(), share.getValue(), from)));
        first += share.getValue();
      }
      List<RunReport> reports = new ArrayList<>();
      for (Future<List<RunReport>> part : parts) {
        reports.addAll(part.get());
      }
      return reports;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("campaign interrupted", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("a campaign worker failed", e.getCause());
    } finally {
      pool.shutdownNow();
    }
  }

  private List<RunReport> runShare(Experiment planned, int count, long firstSeed) {
    List<RunReport> reports = new ArrayList<>();
    long next = firstSeed;
    Experiment experiment = ExperimentRunner.runnable(planned, backend);
    Session session = null;
    try {
      for (int i = 0; i < count; i++, next++) {
        try {
          if (session == null || !session.fits(experiment) || experiment.freshCluster()) {
            closeQuietly(session);
            session = null;
            session = Session.open(experiment, backend, next, pinned);
          }
          FaultSchedule schedule = ExperimentRunner.schedule(experiment, next);
          RunReport report = session.run(experiment, next, schedule, out, console, false);
          if (pinned != null) {
            // Node faults restart nodes during the run: they too must have run the pinned binary,
            // or the run is not counted (it becomes an error, which fails the campaign).
            session.verifyBinary(pinned);
          }
          reports.add(report);
          if (leavesClusterChanged(schedule, report)) {
            closeQuietly(session);
            session = null;
          }
        } catch (RuntimeException e) {
          // A run that could not run (a cluster that did not start, say) is not a verdict on
          // the lock; it is counted and reported, and the next run starts a fresh session.
          synchronized (errors) {
            errors.add(experiment.name() + " seed " + next + ": " + e);
          }
          console.println("  error: " + e);
          closeQuietly(session);
          session = null;
        }
      }
    } finally {
      closeQuietly(session);
    }
    return reports;
  }

  /**
   * Whether the next run needs a fresh cluster: a node restarted without its data stays excluded
   * until re-admitted, and runs in a row that wiped nodes left a majority excluded for every later
   * run (seen in the first campaign: every minority-faults run after such a pair acquired nothing);
   * a run after which no lock came back leaves the same doubt. Later runs must not inherit an
   * earlier schedule's damage.
   */
  static boolean leavesClusterChanged(FaultSchedule schedule, RunReport report) {
    boolean wiped =
        schedule.faults().stream()
            .anyMatch(
                f ->
                    f.fault() instanceof Fault.KillNodes kill
                        && kill.restartWith() == Persistence.NONE);
    return wiped || report.metrics().liveness() != Verdict.TRUE;
  }

  /** The runs that threw instead of producing a report. */
  List<String> errors() {
    synchronized (errors) {
      return List.copyOf(errors);
    }
  }

  private void closeQuietly(Session session) {
    if (session == null) {
      return;
    }
    try {
      session.close();
    } catch (RuntimeException e) {
      console.println("  closing a session failed: " + e);
    }
  }
}
