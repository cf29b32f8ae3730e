package io.fencedlock.chaos.runner;

import io.fencedlock.chaos.checker.Checkers;
import io.fencedlock.chaos.checker.CompositeResult;
import io.fencedlock.chaos.fixture.ChaosCluster;
import io.fencedlock.chaos.fixture.ClusterSpec;
import io.fencedlock.chaos.fixture.FakeTime;
import io.fencedlock.chaos.history.Fn;
import io.fencedlock.chaos.history.History;
import io.fencedlock.chaos.history.HistoryRecorder;
import io.fencedlock.chaos.history.OpType;
import io.fencedlock.chaos.nemesis.ClientClockFaults;
import io.fencedlock.chaos.nemesis.ClientFaults;
import io.fencedlock.chaos.nemesis.ClockFaults;
import io.fencedlock.chaos.nemesis.ClockStepFaults;
import io.fencedlock.chaos.nemesis.FaultApplier;
import io.fencedlock.chaos.nemesis.FaultSchedule;
import io.fencedlock.chaos.nemesis.Nemesis;
import io.fencedlock.chaos.nemesis.NemesisPackage;
import io.fencedlock.chaos.nemesis.NemesisRunner;
import io.fencedlock.chaos.nemesis.NodeFaults;
import io.fencedlock.chaos.nemesis.PowerLossFaults;
import io.fencedlock.chaos.nemesis.ProxyFaults;
import io.fencedlock.chaos.nemesis.StorageFaults;
import io.fencedlock.chaos.workload.Workload;
import io.fencedlock.testkit.Backend;
import io.fencedlock.testkit.RedisNodes;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * A cluster and its client processes, started once and used for any number of runs of experiments
 * with the same setup ({@link Experiment#sameSetup}): each run gets fresh resource names, a history
 * of its own, appliers of its own and a final heal, so runs do not see each other. This is what
 * lets a campaign run thousands of schedules without starting nine JVMs and five Redis servers for
 * each. Not thread-safe: one run at a time.
 */
public final class Session implements AutoCloseable {
  /**
   * Time after the final heal within which some acquire must succeed: the maximum TTL plus slack.
   */
  static final Duration LIVENESS_SLACK = Duration.ofSeconds(3);

  /** How long after a fault's heal its errors may still surface (the storage timeout and more). */
  static final long FAULT_SLACK_MILLIS = 1500;

  private static final Duration TAIL = Duration.ofMillis(500);
  private static final AtomicInteger SESSIONS = new AtomicInteger();

  private final Experiment setup;
  private final Backend backend;
  private final ChaosCluster cluster;
  private final Workload workload;
  private final String id = Integer.toString(SESSIONS.incrementAndGet(), 36);
  private int runs;
  private boolean broken;

  private Session(Experiment setup, Backend backend, ChaosCluster cluster, Workload workload) {
    this.setup = setup;
    this.backend = backend;
    this.cluster = cluster;
    this.workload = workload;
  }

  /**
   * Checks that every node of this session's cluster runs {@code pinned}: after a run too, since
   * node faults restart nodes.
   *
   * @throws IllegalStateException if a node runs another binary
   */
  void verifyBinary(PinnedBinary pinned) {
    pinned.verify(cluster.nodes());
  }

  /**
   * Starts the cluster and the clients {@code experiment} needs.
   *
   * @throws io.fencedlock.testkit.DockerUnavailableException on containers without a Docker engine
   */
  public static Session open(Experiment experiment, Backend backend, long seed) {
    return open(experiment, backend, seed, null);
  }

  /**
   * Starts the cluster and the clients {@code experiment} needs, and checks that every node runs
   * the {@code pinned} binary (none if null).
   *
   * @throws IllegalStateException if a node runs another binary (the cluster is stopped)
   * @throws io.fencedlock.testkit.DockerUnavailableException on containers without a Docker engine
   */
  public static Session open(
      Experiment experiment, Backend backend, long seed, PinnedBinary pinned) {
    ClusterSpec spec =
        new ClusterSpec(
            backend,
            experiment.nodes(),
            experiment.workload().clients(),
            experiment.persistence(),
            experiment.nodeClocks() && backend == Backend.PROCESS,
            experiment.storage(),
            seed);
    ChaosCluster cluster = ChaosCluster.start(spec);
    if (pinned != null) {
      try {
        pinned.verify(cluster.nodes());
      } catch (RuntimeException e) {
        cluster.close();
        throw e;
      }
    }
    Workload workload = new Workload(experiment.workload(), cluster);
    try {
      workload.open();
    } catch (RuntimeException e) {
      try {
        workload.close();
      } finally {
        cluster.close();
      }
      throw e;
    }
    return new Session(experiment, backend, cluster, workload);
  }

  /** Whether this session can run {@code experiment} next. */
  public boolean fits(Experiment experiment) {
    return !broken && setup.sameSetup(experiment);
  }

  /** Whether a run failed so badly (its final heal threw) that the cluster cannot be trusted. */
  public boolean isBroken() {
    return broken;
  }

  /** How the nodes' clocks are moved in this session. */
  public String clockModel() {
    if (cluster.clockOf(0).isPresent()) {
      return "libfaketime";
    }
    return setup.mix().name().startsWith("CLOCK") ? "pttl-model" : "none";
  }

  /**
   * Runs {@code schedule} with {@code experiment}'s expectation, its ops following {@code seed},
   * and writes the run's files under {@code outputRoot}.
   */
  public RunReport run(
      Experiment experiment, long seed, FaultSchedule schedule, Path outputRoot, PrintStream out) {
    return run(experiment, seed, schedule, outputRoot, out, true);
  }

  /**
   * As {@link #run(Experiment, long, FaultSchedule, Path, PrintStream)}; with {@code
   * keepPassingHistories} false, a passing run keeps only its {@code results.json} (a campaign of a
   * thousand runs would otherwise write a gigabyte of histories nobody reads).
   */
  public RunReport run(
      Experiment experiment,
      long seed,
      FaultSchedule schedule,
      Path outputRoot,
      PrintStream out,
      boolean keepPassingHistories) {
    runs++;
    out.printf(
        "%s: seed %d, nodes on %s, schedule: %s%n",
        experiment.name(), seed, ChaosOptions.backendName(backend), schedule);
    long began = System.nanoTime();
    History history = execute(experiment, seed, schedule, livenessBound(experiment), out);
    Checked checked = check(experiment, history);
    CompositeResult checks = checked.checks();
    RunMetrics metrics = checked.metrics();
    List<String> unmet = checked.unmet();
    long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began);
    Path dir = RunFiles.newRunDir(outputRoot, experiment.name());
    RunReport report =
        new RunReport(
            experiment,
            seed,
            backend,
            schedule,
            metrics,
            checks,
            unmet,
            took,
            dir,
            RunEnvironment.machine().withClockModel(clockModel()));
    if (keepPassingHistories || !report.passed()) {
      RunFiles.write(report, history);
    } else {
      RunFiles.writeResults(report);
    }
    out.printf("%s: %s (seed %d) -> %s%n", experiment.name(), report.verdict(), seed, dir);
    unmet.forEach(u -> out.println("  unmet: " + u));
    return report;
  }

  private static long livenessBound(Experiment experiment) {
    return experiment.workload().maxLeaseTtl().plus(LIVENESS_SLACK).toNanos();
  }

  /**
   * What the checkers say of a history of {@code experiment}: run after every run, and again on a
   * recorded history ({@code --recheck}).
   */
  static Checked check(Experiment experiment, History history) {
    CompositeResult checks =
        Checkers.compose(
            Checkers.all(
                livenessBound(experiment),
                experiment.workload().clients(),
                experiment.workload().nodeTimeout().toMillis(),
                FAULT_SLACK_MILLIS),
            history);
    RunMetrics metrics = RunMetrics.of(history, checks);
    return new Checked(checks, metrics, experiment.check().unmet(metrics));
  }

  /**
   * @param checks every checker's result
   * @param metrics the run's figures
   * @param unmet what the experiment's expectation found wanting (empty: PASS)
   */
  record Checked(CompositeResult checks, RunMetrics metrics, List<String> unmet) {}

  private History execute(
      Experiment experiment,
      long seed,
      FaultSchedule schedule,
      long livenessBound,
      PrintStream out) {
    long planned = schedule.endMillis() + TimeUnit.NANOSECONDS.toMillis(livenessBound);
    HistoryRecorder recorder = new HistoryRecorder();
    List<String> resources = new ArrayList<>();
    for (int r = 0; r < experiment.workload().resources(); r++) {
      resources.add("chaos:" + id + "." + runs + ":r" + r);
    }
    List<AutoCloseable> perRun = new ArrayList<>();
    Nemesis nemesis = nemesis(experiment, recorder, perRun);
    NemesisRunner runner = new NemesisRunner(new NemesisPackage(nemesis, schedule), recorder);
    try (ProgressLine progress = new ProgressLine(experiment.name(), planned, recorder, out)) {
      workload.start(recorder, resources, seed);
      try {
        runner.run(System.nanoTime());
      } finally {
        try {
          runner.finalHeal();
        } catch (RuntimeException e) {
          broken = true;
          out.println("  final heal failed: " + e);
        }
      }
      awaitRecovery(recorder, livenessBound);
      workload.stopAndRead();
    } finally {
      for (AutoCloseable c : perRun) {
        try {
          c.close();
        } catch (Exception e) {
          out.println("  cleanup failed: " + e); // the run's history is complete already
        }
      }
    }
    return recorder.snapshot();
  }

  private Nemesis nemesis(
      Experiment experiment, HistoryRecorder recorder, List<AutoCloseable> perRun) {
    List<FaultApplier> appliers = new ArrayList<>();
    appliers.add(new ProxyFaults(cluster.links()));
    appliers.add(new NodeFaults(cluster.nodes()));
    if (cluster.clockOf(0).isPresent()) {
      ClockFaults clocks = new ClockFaults(cluster.nodes(), n -> cluster.clockOf(n).orElseThrow());
      perRun.add(clocks::close);
      appliers.add(clocks);
    } else {
      appliers.add(new ClockStepFaults(cluster.nodes(), workload::resources));
    }
    ClientFaults clients = new ClientFaults(workload.fleet(), recorder);
    perRun.add(clients::close);
    appliers.add(clients);
    appliers.add(new StorageFaults(cluster.storage(), recorder, workload::resources));
    if (cluster.nodes() instanceof RedisNodes processes) {
      PowerLossFaults power = new PowerLossFaults(processes);
      perRun.add(power::close);
      appliers.add(power);
    }
    if (experiment.workload().clientClocks()) {
      appliers.add(new ClientClockFaults(experiment.workload().clients(), workload::clockOf));
    }
    return new Nemesis(appliers);
  }

  /**
   * Lets the workload run until an acquire succeeds after the heal (bounded), then a short tail.
   */
  private static void awaitRecovery(HistoryRecorder recorder, long boundNanos) {
    long healed = recorder.now();
    long deadline = System.nanoTime() + boundNanos;
    while (recorder.lastTime(Fn.ACQUIRE, OpType.OK) < healed && System.nanoTime() < deadline) {
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
    }
    LockSupport.parkNanos(TAIL.toNanos());
  }

  /** Whether libfaketime is there for node and client clocks. */
  public static boolean clocksAvailable() {
    return FakeTime.available();
  }

  @Override
  public void close() {
    try {
      workload.close();
    } finally {
      cluster.close();
    }
  }
}
