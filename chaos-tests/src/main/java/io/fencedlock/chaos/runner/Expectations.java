package io.fencedlock.chaos.runner;

import io.fencedlock.chaos.checker.Verdict;
import java.util.ArrayList;
import java.util.List;

/** Building blocks for {@link Expectation}s. Pure; thread-safe. */
final class Expectations {
  private Expectations() {}

  /** Every given expectation holds. */
  static Expectation allOf(Expectation... parts) {
    return m -> {
      List<String> unmet = new ArrayList<>();
      for (Expectation e : parts) {
        unmet.addAll(e.unmet(m));
      }
      return unmet;
    };
  }

  static Expectation progress() {
    return m -> m.acquisitions() > 0 ? List.of() : List.of("no lock was ever acquired");
  }

  static Expectation mutualExclusion() {
    return m ->
        m.meViolations() == 0
            ? List.of()
            : List.of(m.meViolations() + " mutual-exclusion violations");
  }

  static Expectation tokens() {
    return m ->
        m.tokenViolations() == 0 ? List.of() : List.of(m.tokenViolations() + " token violations");
  }

  static Expectation tokenViolationsFound() {
    return m ->
        m.tokenViolations() > 0
            ? List.of()
            : List.of(
                "negative control found no token violation: the test is not testing anything");
  }

  /** The fenced resource is judged and safe. */
  static Expectation fencedSafe() {
    return m ->
        m.fenced() == Verdict.TRUE && m.staleWritesAccepted() == 0
            ? List.of()
            : List.of(
                "fenced resource "
                    + m.fenced()
                    + ": "
                    + m.fencedViolations()
                    + " violations, "
                    + m.staleWritesAccepted()
                    + " stale writes accepted");
  }

  static Expectation canaryBites() {
    return m ->
        m.canaryViolations() > 0
            ? List.of()
            : List.of("the unfenced canary saw no lost update: the fault did not bite");
  }

  static Expectation staleWritesRejected() {
    return m -> m.writesRejected() > 0 ? List.of() : List.of("no stale write was ever rejected");
  }

  static Expectation live() {
    return m ->
        m.liveness() == Verdict.TRUE
            ? List.of()
            : List.of("no acquire within the bound after the final heal (" + m.liveness() + ")");
  }

  static Expectation clearFailures() {
    return m ->
        m.acquireFailures() > 0 && m.clearAcquireErrors() == m.acquireFailures()
            ? List.of()
            : List.of(
                "expected failed acquires with clear errors: "
                    + m.acquireFailures()
                    + " failed, "
                    + m.clearAcquireErrors()
                    + " clear");
  }
}
