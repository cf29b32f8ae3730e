package io.fencedlock.chaos.runner;

import io.fencedlock.chaos.nemesis.FaultSchedule;
import io.fencedlock.chaos.nemesis.ScheduledFault;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Shrinks a failing schedule of any fault family: removes one fault at a time, keeping a removal
 * whenever the run still fails without that fault, until no single removal keeps it failing or the
 * budget of runs is spent. Faults keep their ids and start times, so what is left is the same
 * faults at the same instants. Each probe is a real run, so the predicate is noisy: the result is a
 * smaller schedule that failed once, which a replay confirms or not. Stateless.
 */
final class Shrinker {
  private Shrinker() {}

  /**
   * The smallest schedule found.
   *
   * @param failing a schedule whose run failed
   * @param stillFails runs a candidate and says whether it failed the same way
   * @param maxRuns how many candidates to run at most
   */
  static Result shrink(FaultSchedule failing, Predicate<FaultSchedule> stillFails, int maxRuns) {
    List<ScheduledFault> current = new ArrayList<>(failing.faults());
    int runs = 0;
    boolean removed = true;
    while (removed && current.size() > 1 && runs < maxRuns) {
      removed = false;
      // From the last fault back: later faults are the likelier bystanders of an early cause.
      for (int i = current.size() - 1; i >= 0 && runs < maxRuns; i--) {
        List<ScheduledFault> candidate = new ArrayList<>(current);
        candidate.remove(i);
        runs++;
        if (stillFails.test(new FaultSchedule(candidate))) {
          current = candidate;
          removed = true;
          break;
        }
      }
    }
    return new Result(new FaultSchedule(current), runs);
  }

  /**
   * @param schedule the smallest failing schedule found
   * @param runs how many candidates were run
   */
  record Result(FaultSchedule schedule, int runs) {}
}
