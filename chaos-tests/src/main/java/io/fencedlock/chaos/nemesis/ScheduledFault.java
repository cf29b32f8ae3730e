package io.fencedlock.chaos.nemesis;

import java.util.Objects;

/**
 * A fault with its time in the run. Immutable.
 *
 * @param id position in the schedule, pairing start and stop ops
 * @param startMillis when to apply it, from the start of the workload
 * @param durationMillis how long until it is healed
 * @param fault what to break
 */
public record ScheduledFault(int id, long startMillis, long durationMillis, Fault fault) {
  public ScheduledFault {
    Objects.requireNonNull(fault, "fault");
    if (startMillis < 0 || durationMillis < 0) {
      throw new IllegalArgumentException("start and duration must be >= 0");
    }
  }

  /** When it is healed. */
  public long endMillis() {
    return startMillis + durationMillis;
  }

  @Override
  public String toString() {
    return "#" + id + " @" + startMillis + "ms +" + durationMillis + "ms " + fault.describe();
  }
}
