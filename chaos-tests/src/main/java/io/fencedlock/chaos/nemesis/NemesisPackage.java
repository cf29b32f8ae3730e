package io.fencedlock.chaos.nemesis;

import java.util.Objects;

/**
 * A nemesis, the schedule it runs and, implicitly, its final heal (Jepsen's nemesis package).
 * Immutable.
 *
 * @param nemesis applies and heals faults
 * @param schedule the faults to run
 */
public record NemesisPackage(Nemesis nemesis, FaultSchedule schedule) {
  public NemesisPackage {
    Objects.requireNonNull(nemesis, "nemesis");
    Objects.requireNonNull(schedule, "schedule");
  }

  /** Heals everything: called after the schedule, whatever happened. */
  public void finalHeal() {
    nemesis.healAll();
  }
}
