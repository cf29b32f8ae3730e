package io.fencedlock.chaos.runner;

import io.fencedlock.chaos.checker.Checkers;
import io.fencedlock.chaos.checker.CompositeResult;
import io.fencedlock.chaos.fixture.ChaosCluster;
import io.fencedlock.chaos.generator.ScheduleGenerator;
import io.fencedlock.chaos.history.Fn;
import io.fencedlock.chaos.history.History;
import io.fencedlock.chaos.history.HistoryRecorder;
import io.fencedlock.chaos.history.OpType;
import io.fencedlock.chaos.nemesis.ClientPauses;
import io.fencedlock.chaos.nemesis.ClockStepFaults;
import io.fencedlock.chaos.nemesis.FaultSchedule;
import io.fencedlock.chaos.nemesis.Nemesis;
import io.fencedlock.chaos.nemesis.NemesisPackage;
import io.fencedlock.chaos.nemesis.NemesisRunner;
import io.fencedlock.chaos.nemesis.NodeFaults;
import io.fencedlock.chaos.nemesis.ProxyFaults;
import io.fencedlock.chaos.workload.Workload;
import io.fencedlock.testkit.Backend;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs one experiment with one seed: starts the cluster, runs the workload while the nemesis plays
 * the schedule, heals everything, waits (bounded) for the lock to come back, reads the registers,
 * checks the history and writes the run's files. Everything it starts is stopped before it returns.
 * Not thread-safe: one run at a time per instance.
 */
public final class ExperimentRunner {
  /**
   * Time after the final heal within which some acquire must succeed: the maximum TTL plus slack.
   */
  static final Duration LIVENESS_SLACK = Duration.ofSeconds(3);

  private static final Duration TAIL = Duration.ofMillis(500);

  private final Path outputRoot;
  private final PrintStream out;
  private final Backend backend;

  /** A runner whose nodes are processes. */
  public ExperimentRunner(Path outputRoot, PrintStream out) {
    this(outputRoot, out, Backend.PROCESS);
  }

  /** A runner whose nodes (and fault proxy) run on {@code backend}; see {@link ChaosCluster}. */
  public ExperimentRunner(Path outputRoot, PrintStream out, Backend backend) {
    this.outputRoot = outputRoot;
    this.out = out;
    this.backend = backend;
  }

  /** Runs the experiment with the schedule generated from {@code seed}. */
  public RunReport run(Experiment experiment, long seed) {
    return run(
        experiment,
        seed,
        ScheduleGenerator.generate(
            experiment.mix(), experiment.topology(), seed, experiment.faults()));
  }

  /**
   * Runs the experiment with a given schedule (as the jqwik properties do, so that a failing
   * schedule shrinks); {@code seed} only fixes the proxy server's random draws.
   */
  public RunReport run(Experiment experiment, long seed, FaultSchedule schedule) {
    out.printf(
        "%s: seed %d, nodes on %s, schedule: %s%n",
        experiment.name(), seed, ChaosOptions.backendName(backend), schedule);
    long livenessBound = experiment.workload().maxLeaseTtl().plus(LIVENESS_SLACK).toNanos();
    long began = System.nanoTime();
    History history = execute(experiment, seed, schedule, livenessBound);
    CompositeResult checks = Checkers.compose(Checkers.standard(livenessBound), history);
    RunMetrics metrics = RunMetrics.of(history, checks);
    List<String> unmet = experiment.check().unmet(metrics);
    long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began);
    Path dir = RunFiles.newRunDir(outputRoot, experiment.name());
    RunReport report =
        new RunReport(experiment, seed, backend, schedule, metrics, checks, unmet, took, dir);
    RunFiles.write(report, history);
    out.printf("%s: %s (seed %d) -> %s%n", experiment.name(), report.verdict(), seed, dir);
    unmet.forEach(u -> out.println("  unmet: " + u));
    return report;
  }

  private History execute(
      Experiment experiment, long seed, FaultSchedule schedule, long livenessBound) {
    long planned = schedule.endMillis() + TimeUnit.NANOSECONDS.toMillis(livenessBound);
    try (ChaosCluster cluster =
            ChaosCluster.start(
                backend,
                experiment.nodes(),
                experiment.workload().clients(),
                experiment.persistence(),
                seed);
        Workload workload = new Workload(experiment.workload(), cluster)) {
      workload.open();
      // The history's time 0 is once everything is up, so timelines do not start with the start-up.
      HistoryRecorder recorder = new HistoryRecorder();
      runWorkload(experiment, schedule, cluster, workload, recorder, livenessBound, planned);
      return recorder.snapshot();
    }
  }

  private void runWorkload(
      Experiment experiment,
      FaultSchedule schedule,
      ChaosCluster cluster,
      Workload workload,
      HistoryRecorder recorder,
      long livenessBound,
      long planned) {
    try (ProgressLine progress = new ProgressLine(experiment.name(), planned, recorder, out)) {
      ClientPauses pauses = new ClientPauses();
      Nemesis nemesis =
          new Nemesis(
              List.of(
                  new ProxyFaults(cluster.links()),
                  new NodeFaults(cluster.nodes()),
                  new ClockStepFaults(cluster.nodes(), List.of(experiment.workload().resource())),
                  pauses));
      NemesisRunner runner = new NemesisRunner(new NemesisPackage(nemesis, schedule), recorder);
      workload.start(recorder, pauses);
      try {
        runner.run(System.nanoTime());
      } finally {
        runner.finalHeal();
      }
      awaitRecovery(recorder, livenessBound);
      workload.stopAndRead();
    }
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
}
