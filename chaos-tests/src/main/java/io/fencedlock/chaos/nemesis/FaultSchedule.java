package io.fencedlock.chaos.nemesis;

import java.util.Comparator;
import java.util.List;

/**
 * The faults of one run, ordered by start time. Immutable.
 *
 * @param faults the scheduled faults
 */
public record FaultSchedule(List<ScheduledFault> faults) {
  public FaultSchedule {
    faults = faults.stream().sorted(Comparator.comparingLong(ScheduledFault::startMillis)).toList();
  }

  /** When the last fault is healed (0 for an empty schedule). */
  public long endMillis() {
    return faults.stream().mapToLong(ScheduledFault::endMillis).max().orElse(0);
  }

  @Override
  public String toString() {
    return faults.isEmpty()
        ? "(no faults)"
        : String.join("; ", faults.stream().map(ScheduledFault::toString).toList());
  }
}
