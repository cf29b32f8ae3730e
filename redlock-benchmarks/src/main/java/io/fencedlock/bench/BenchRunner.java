package io.fencedlock.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * Runs scenarios against systems. Systems are interleaved: each repetition runs every system once,
 * starting one system later than the repetition before, so that noise from other processes on the
 * machine spreads over all systems instead of hitting one; in a {@link TurnTakingScenario} the
 * systems of a repetition also share its window, in short turns.
 */
final class BenchRunner {
  private final BenchPlan plan;
  private final Progress progress;

  BenchRunner(BenchPlan plan, Progress progress) {
    this.plan = plan;
    this.progress = progress;
  }

  /** How many runs {@link #run} makes for these scenarios and systems. */
  static int runs(BenchPlan plan, List<Scenario> scenarios, List<LockSystem> systems) {
    int perRep = 0;
    for (Scenario scenario : scenarios) {
      perRep += (int) systems.stream().filter(scenario::accepts).count();
    }
    return perRep * plan.reps();
  }

  ScenarioResult run(Scenario scenario, List<LockSystem> systems) {
    List<LockSystem> taking = systems.stream().filter(scenario::accepts).toList();
    ScenarioResult result = new ScenarioResult(scenario);
    for (int rep = 0; rep < plan.reps(); rep++) {
      if (scenario instanceof TurnTakingScenario turns) {
        List<LockSystem> order = rotated(taking, rep);
        progress.starting(scenario.id(), order.size() + " systems in turns", rep, plan.reps());
        List<Measurement> measurements = turns.runInTurns(order, plan.window(rep));
        for (int i = 0; i < order.size(); i++) {
          progress.finished(
              order.get(i).name(), measurements.get(i).stats(), measurements.get(i).firstError());
          result.add(order.get(i).name(), measurements.get(i));
        }
        continue;
      }
      for (LockSystem system : rotated(taking, rep)) {
        progress.starting(scenario.id(), system.name(), rep, plan.reps());
        Measurement measurement = scenario.run(system, plan.window(rep));
        progress.finished(measurement.stats(), measurement.firstError());
        result.add(system.name(), measurement);
      }
    }
    return result;
  }

  private static List<LockSystem> rotated(List<LockSystem> systems, int by) {
    List<LockSystem> order = new ArrayList<>();
    for (int i = 0; i < systems.size(); i++) {
      order.add(systems.get((i + by) % systems.size()));
    }
    return order;
  }
}
