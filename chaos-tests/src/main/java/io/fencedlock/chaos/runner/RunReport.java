package io.fencedlock.chaos.runner;

import io.fencedlock.chaos.checker.CompositeResult;
import io.fencedlock.chaos.nemesis.FaultSchedule;
import io.fencedlock.testkit.Backend;
import java.nio.file.Path;
import java.util.List;

/**
 * The outcome of one run of one experiment. Immutable.
 *
 * @param experiment what ran
 * @param seed the seed that generated its schedule and its ops (replay with {@code --seed})
 * @param backend what ran the nodes and the proxies
 * @param schedule the faults
 * @param metrics the measured numbers
 * @param checks every checker's result
 * @param unmet the unmet parts of the expectation; empty means PASS
 * @param durationMillis wall time of the run
 * @param dir where its files are
 * @param environment the Redis binary, the commit and the clock model
 */
public record RunReport(
    Experiment experiment,
    long seed,
    Backend backend,
    FaultSchedule schedule,
    RunMetrics metrics,
    CompositeResult checks,
    List<String> unmet,
    long durationMillis,
    Path dir,
    RunEnvironment environment) {

  public RunReport {
    unmet = List.copyOf(unmet);
  }

  /** Whether the expectation held. */
  public boolean passed() {
    return unmet.isEmpty();
  }

  /** The command that runs the same schedule again. */
  public String replayCommand() {
    return "./fencedlock chaos --replay " + dir.resolve("results.json");
  }

  /** The command that generates the same schedule from its seed. */
  public String seedCommand() {
    return "./fencedlock chaos --experiments "
        + experiment.name()
        + " --faults "
        + experiment.faults()
        + " --seed "
        + seed
        + (backend == Backend.PROCESS ? "" : " --backend " + ChaosOptions.backendName(backend));
  }

  /** PASS or FAIL. */
  public String verdict() {
    return passed() ? "PASS" : "FAIL";
  }
}
