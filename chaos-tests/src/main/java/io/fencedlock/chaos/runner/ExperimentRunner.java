package io.fencedlock.chaos.runner;

import io.fencedlock.chaos.generator.ScheduleGenerator;
import io.fencedlock.chaos.nemesis.FaultSchedule;
import io.fencedlock.testkit.Backend;
import java.io.PrintStream;
import java.nio.file.Path;

/**
 * Runs one experiment with one seed in a {@link Session} of its own: starts the cluster and the
 * client processes, runs the workload while the nemesis plays the schedule, heals everything, waits
 * (bounded) for the lock to come back, reads the registers, checks the history and writes the run's
 * files. Everything it starts is stopped before it returns. Experiments whose nodes need clocks of
 * their own fall back to the PTTL model where libfaketime is missing (the results say which ran).
 * Not thread-safe: one run at a time per instance.
 */
public final class ExperimentRunner {
  private final Path outputRoot;
  private final PrintStream out;
  private final Backend backend;

  /** A runner whose nodes are processes. */
  public ExperimentRunner(Path outputRoot, PrintStream out) {
    this(outputRoot, out, Backend.PROCESS);
  }

  /** A runner whose nodes (and fault proxy) run on {@code backend}. */
  public ExperimentRunner(Path outputRoot, PrintStream out, Backend backend) {
    this.outputRoot = outputRoot;
    this.out = out;
    this.backend = backend;
  }

  /** Runs the experiment with the schedule generated from {@code seed}. */
  public RunReport run(Experiment experiment, long seed) {
    return run(experiment, seed, schedule(experiment, seed));
  }

  /** The schedule {@code seed} generates for {@code experiment}. */
  public static FaultSchedule schedule(Experiment experiment, long seed) {
    return ScheduleGenerator.generate(
        experiment.mix(), experiment.topology(), seed, experiment.faults());
  }

  /**
   * Runs the experiment with a given schedule (replays, shrinking, the jqwik properties); {@code
   * seed} fixes the ops and the proxy server's random draws.
   */
  public RunReport run(Experiment experiment, long seed, FaultSchedule schedule) {
    Experiment runnable = runnable(experiment, backend);
    try (Session session = Session.open(runnable, backend, seed)) {
      return session.run(runnable, seed, schedule, outputRoot, out);
    }
  }

  /** The experiment as this machine can run it: without node clocks if libfaketime is missing. */
  static Experiment runnable(Experiment experiment, Backend backend) {
    boolean clocks = Session.clocksAvailable() && backend == Backend.PROCESS;
    if (experiment.nodeClocks() && !clocks) {
      return experiment.withoutNodeClocks();
    }
    return experiment;
  }
}
