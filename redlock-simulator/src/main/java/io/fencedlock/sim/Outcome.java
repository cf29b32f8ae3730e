package io.fencedlock.sim;

import java.util.List;

/**
 * What one schedule showed.
 *
 * @param violations the first violation of each kind, whether promised or not
 * @param traceHash the hash of every event, the same for every run of the plan
 * @param trace the readable trace, if it was recorded
 */
public record Outcome(
    Plan plan,
    List<Violation> violations,
    Assumptions assumptions,
    Stats stats,
    long traceHash,
    List<String> trace) {

  /** The violations of invariants this schedule was promised: each is a bug. */
  public List<Violation> failures() {
    return violations.stream().filter(v -> v.kind().promisedUnder(assumptions)).toList();
  }

  /**
   * The violations this schedule was not promised (it broke their assumptions): expected, counted.
   */
  public List<Violation> expected() {
    return violations.stream().filter(v -> !v.kind().promisedUnder(assumptions)).toList();
  }

  public boolean failed() {
    return !failures().isEmpty();
  }
}
