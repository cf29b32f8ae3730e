package io.fencedlock.chaos.nemesis;

import java.util.ArrayList;
import java.util.List;

/**
 * Routes each fault to the applier that handles it (Jepsen's {@code compose}). Same thread-safety
 * as its appliers.
 */
public final class Nemesis {
  private final List<FaultApplier> appliers;

  public Nemesis(List<FaultApplier> appliers) {
    this.appliers = List.copyOf(appliers);
  }

  /** Applies a fault through its applier and returns what it measured (may be empty). */
  public String apply(int id, Fault fault) {
    return applierFor(fault).apply(id, fault);
  }

  /** Heals a fault through its applier. */
  public void heal(int id, Fault fault) {
    applierFor(fault).heal(id, fault);
  }

  /**
   * Heals everything every applier may have broken. Runs each applier even if an earlier one fails,
   * then throws the first failure with the others suppressed.
   */
  public void healAll() {
    List<RuntimeException> failures = new ArrayList<>();
    for (FaultApplier a : appliers) {
      try {
        a.healAll();
      } catch (RuntimeException e) {
        failures.add(e);
      }
    }
    if (!failures.isEmpty()) {
      RuntimeException first = failures.get(0);
      failures.stream().skip(1).forEach(first::addSuppressed);
      throw first;
    }
  }

  private FaultApplier applierFor(Fault fault) {
    return appliers.stream()
        .filter(a -> a.handles(fault))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no applier for " + fault.kind()));
  }
}
