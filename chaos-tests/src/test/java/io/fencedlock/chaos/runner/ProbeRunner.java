package io.fencedlock.chaos.runner;

import io.fencedlock.chaos.nemesis.FaultSchedule;
import io.fencedlock.testkit.Backend;
import java.nio.file.Path;

/**
 * Runs schedules of one experiment with one seed, one after another, in a session it keeps open
 * between runs as a campaign does, and reopens under the campaign's rule ({@link
 * Campaign#leavesClusterChanged}): a run that wiped nodes or after which no lock came back leaves
 * the next run a fresh cluster. Not thread-safe.
 */
final class ProbeRunner implements AutoCloseable {
  private static final Path OUT = Path.of("target", "chaos-shrink");

  private final Experiment experiment;
  private final long seed;
  private Session session;

  ProbeRunner(Experiment experiment, long seed) {
    this.experiment = ExperimentRunner.runnable(experiment, Backend.PROCESS);
    this.seed = seed;
  }

  /** Runs {@code schedule} and writes its files under {@code target/chaos-shrink}. */
  RunReport run(FaultSchedule schedule) {
    if (session == null) {
      session = Session.open(experiment, Backend.PROCESS, seed);
    }
    RunReport report = session.run(experiment, seed, schedule, OUT, System.out);
    if (session.isBroken() || Campaign.leavesClusterChanged(schedule, report)) {
      close();
    }
    return report;
  }

  @Override
  public void close() {
    if (session != null) {
      try {
        session.close();
      } finally {
        session = null;
      }
    }
  }
}
