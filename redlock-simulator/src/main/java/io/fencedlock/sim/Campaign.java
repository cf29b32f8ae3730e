package io.fencedlock.sim;

import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * Many schedules from one campaign seed: schedule n runs the plan drawn from {@code
 * Seeds.schedule(seed, n)}. Adds up the counters, counts violations by kind (failures inside the
 * assumptions, expected ones outside), and stops at the first failure unless told to go on.
 */
final class Campaign {

  /** What a campaign showed. */
  static final class Result {
    long schedules;
    long failedSchedules;
    long outsideAssumptions;
    final Stats stats = new Stats();
    final Map<Violation.Kind, Long> failures = new EnumMap<>(Violation.Kind.class);
    final Map<Violation.Kind, Long> expected = new EnumMap<>(Violation.Kind.class);
    @Nullable Outcome firstFailure;

    /** The index of the first failing schedule (0-based), or -1. */
    long firstFailureIndex = -1;

    long nanos;
    boolean stoppedAtWanted;

    double perSecond() {
      return schedules / Math.max(1e-9, nanos / 1e9);
    }
  }

  private Campaign() {}

  /**
   * @param progress called about once a second with a progress line
   */
  static Result run(
      long seed, long schedules, Set<Bug> bugs, boolean stopAtFailure, Consumer<String> progress) {
    return run(seed, schedules, bugs, stopAtFailure ? kind -> true : kind -> false, progress);
  }

  /**
   * @param stopAt whether a failure of this kind ends the campaign (the first failure of such a
   *     kind is then the one reported)
   */
  static Result run(
      long seed,
      long schedules,
      Set<Bug> bugs,
      java.util.function.Predicate<Violation.Kind> stopAt,
      Consumer<String> progress) {
    Result result = new Result();
    long started = System.nanoTime();
    long lastReport = started;
    for (long n = 0; n < schedules; n++) {
      Outcome o = Simulation.run(PlanGenerator.generate(Seeds.schedule(seed, n), bugs), false);
      result.schedules++;
      result.stats.add(o.stats());
      if (!o.assumptions().allHeld()) {
        result.outsideAssumptions++;
      }
      for (Violation v : o.failures()) {
        result.failures.merge(v.kind(), 1L, Long::sum);
      }
      for (Violation v : o.expected()) {
        result.expected.merge(v.kind(), 1L, Long::sum);
      }
      if (o.failed()) {
        result.failedSchedules++;
        boolean stop = o.failures().stream().anyMatch(v -> stopAt.test(v.kind()));
        if (result.firstFailure == null || (stop && !result.stoppedAtWanted)) {
          result.firstFailure = o;
          result.firstFailureIndex = n;
          result.stoppedAtWanted = stop;
        }
        if (stop) {
          break;
        }
      }
      long now = System.nanoTime();
      if (now - lastReport > 1_000_000_000L) {
        lastReport = now;
        result.nanos = now - started;
        progress.accept(
            String.format(
                "%,d / %,d schedules, %,.0f/s, %,d failed, %,d outside the assumptions",
                result.schedules,
                schedules,
                result.perSecond(),
                result.failedSchedules,
                result.outsideAssumptions));
      }
    }
    result.nanos = System.nanoTime() - started;
    return result;
  }
}
