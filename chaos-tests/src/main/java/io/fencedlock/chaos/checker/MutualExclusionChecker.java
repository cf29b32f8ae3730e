package io.fencedlock.chaos.checker;

import io.fencedlock.chaos.history.History;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * No two processes believe they hold the lock at the same time: believed-held intervals ({@link
 * Holds}) of different processes never overlap. Thread-safe; never throws on a valid history.
 */
public final class MutualExclusionChecker implements Checker {
  public static final String NAME = "mutual-exclusion";
  public static final String METRIC = "meViolations";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public CheckResult check(History history) {
    List<Hold> holds = new ArrayList<>(Holds.of(history));
    holds.sort(Comparator.comparingLong(Hold::startNanos));
    long violations = 0;
    List<String> details = new ArrayList<>();
    for (int i = 0; i < holds.size(); i++) {
      Hold a = holds.get(i);
      // Sorted by start: once b starts after a ends, no later hold can overlap a.
      for (int j = i + 1; j < holds.size() && holds.get(j).startNanos() < a.endNanos(); j++) {
        Hold b = holds.get(j);
        if (b.process() != a.process() && a.overlaps(b)) {
          violations++;
          details.add(
              String.format(
                  "process %d (token %d) and %d (token %d) both held the lock for %.1f ms",
                  a.process(),
                  a.token(),
                  b.process(),
                  b.token(),
                  (Math.min(a.endNanos(), b.endNanos()) - b.startNanos()) / 1e6));
        }
      }
    }
    return CheckResult.of(
        NAME, violations, Map.of(METRIC, violations, "holds", (long) holds.size()), details);
  }
}
