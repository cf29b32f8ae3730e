package io.fencedlock.chaos.runner;

import io.fencedlock.chaos.checker.DurabilityChecker;
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

  /** Every fault applied and healed (any experiment: a fault that does not apply fails the run). */
  static Expectation faultsApplied() {
    return m ->
        m.faultsApplied()
            ? List.of()
            : List.of(m.get(RunMetrics.FAULT_FAILURES) + " faults failed to apply or to heal");
  }

  /** Every fault that must show errors did. */
  static Expectation faultsBit() {
    return m ->
        m.get(RunMetrics.FAULTS_MISSED) == 0
            ? List.of()
            : List.of(
                m.get(RunMetrics.FAULTS_MISSED) + " faults showed no effect while they lasted");
  }

  static Expectation mutualExclusion() {
    return m ->
        m.meViolations() == 0
            ? List.of()
            : List.of(m.meViolations() + " mutual-exclusion violations");
  }

  /** A clock fault must break mutual exclusion: that is how we know it bit. */
  static Expectation mutualExclusionBroken() {
    return m ->
        m.meViolations() > 0
            ? List.of()
            : List.of("no mutual-exclusion violation: the clock fault did not bite");
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

  /** The fenced resource is judged and safe, and its list-append check passes. */
  static Expectation fencedSafe() {
    return m -> {
      List<String> unmet = new ArrayList<>();
      if (m.fenced() != Verdict.TRUE || m.staleWritesAccepted() > 0) {
        unmet.add(
            "fenced resource "
                + m.fenced()
                + ": "
                + m.fencedViolations()
                + " violations, "
                + m.staleWritesAccepted()
                + " stale writes accepted");
      }
      if (m.verdict("list-append-fenced") != Verdict.TRUE) {
        unmet.add(
            "list-append check of the fenced object "
                + m.verdict("list-append-fenced")
                + ": "
                + m.get(RunMetrics.LIST_APPEND_FENCED)
                + " anomalies");
      }
      return unmet;
    };
  }

  /** The negative control of the fenced-resource checker: a store without its check fails it. */
  /**
   * The fenced-resource checker must fail. The list-append check of the fenced object need not: a
   * holder paused after its fence reads the object after the pause, so its stale append lands on
   * the latest list, out of token order (which the fenced-resource checker sees) but with no lost
   * or reordered append; the list-append check is shown failing on the canary ({@link
   * #canaryBites}).
   */
  static Expectation fencedBroken() {
    return m ->
        m.fenced() == Verdict.FALSE
            ? List.of()
            : List.of(
                "negative control: the fenced-resource checker said "
                    + m.fenced()
                    + " on a store that accepts stale tokens");
  }

  static Expectation durable() {
    return m ->
        m.verdict(DurabilityChecker.NAME) != Verdict.FALSE
            ? List.of()
            : List.of(m.get(RunMetrics.DURABILITY) + " times the store had lost its highest token");
  }

  static Expectation durabilityBroken() {
    return m ->
        m.verdict(DurabilityChecker.NAME) == Verdict.FALSE
            ? List.of()
            : List.of("negative control: the durability checker found no lost token after a wipe");
  }

  static Expectation canaryBites() {
    return m ->
        m.canaryViolations() > 0 && m.verdict("list-append-canary") == Verdict.FALSE
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

  /** A majority without memory is an outage by design: no acquire may succeed after it. */
  static Expectation outage() {
    return m ->
        m.liveness() == Verdict.FALSE
            ? List.of()
            : List.of("a lock was granted after a majority lost its memory (" + m.liveness() + ")");
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
                    + " with per-node outcomes");
  }

  /** Client processes were really signalled. */
  static Expectation clientsSignalled() {
    return m ->
        m.get(RunMetrics.SIGNALS) > 0 ? List.of() : List.of("no client process was signalled");
  }

  /**
   * Some write's outcome was unknown (the storage faults bit where it matters). Checked over a
   * campaign's storage runs ({@link CampaignReport}): a single short schedule may cut off only
   * clients that were not writing.
   */
  static Expectation unknownWrites() {
    return m ->
        m.get(RunMetrics.WRITES_UNKNOWN) + m.get("info.canary") > 0
            ? List.of()
            : List.of("no write of unknown outcome: the storage faults did not bite");
  }

  /** A node was re-admitted with an epoch from the high-water mark, not from the clock. */
  static Expectation readmittedByHighWater() {
    return m ->
        m.get(RunMetrics.READMISSIONS_BY_HIGH_WATER) > 0
            ? List.of()
            : List.of(
                "no re-admission took its epoch from the high-water mark ("
                    + m.get(RunMetrics.READMISSIONS)
                    + " re-admissions)");
  }

  /** A power loss cut something off. */
  static Expectation powerLossBit() {
    return m ->
        m.get(RunMetrics.POWER_LOSS_BYTES) > 0
            ? List.of()
            : List.of("no power loss cut anything from an append-only file");
  }
}
