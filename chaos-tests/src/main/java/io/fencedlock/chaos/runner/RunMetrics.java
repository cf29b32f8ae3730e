package io.fencedlock.chaos.runner;

import io.fencedlock.chaos.checker.CanaryChecker;
import io.fencedlock.chaos.checker.CompositeResult;
import io.fencedlock.chaos.checker.FencedResourceChecker;
import io.fencedlock.chaos.checker.LivenessChecker;
import io.fencedlock.chaos.checker.MutualExclusionChecker;
import io.fencedlock.chaos.checker.TokenChecker;
import io.fencedlock.chaos.checker.Verdict;
import io.fencedlock.chaos.history.Fields;
import io.fencedlock.chaos.history.Fn;
import io.fencedlock.chaos.history.History;
import io.fencedlock.chaos.history.OpPair;
import io.fencedlock.chaos.history.OpType;

/**
 * The numbers of one run, from its history and checker results. Immutable.
 *
 * @param operations client operations invoked (acquire, write, canary, release, pause)
 * @param acquisitions successful acquires
 * @param acquireFailures acquires that failed definitely
 * @param clearAcquireErrors failed acquires whose error says why, with per-node outcomes
 * @param meViolations overlapping believed-held intervals
 * @param tokenViolations duplicate or out-of-order tokens
 * @param staleWritesAccepted fenced writes accepted after a higher token
 * @param fencedViolations every violation of the fenced resource (stale, lost, out of order)
 * @param canaryViolations lost updates on the unfenced canary
 * @param writesAccepted fenced writes accepted
 * @param writesRejected fenced writes rejected
 * @param recoveryMillis time from the final heal to the next acquire (-1 if none)
 * @param fenced the fenced-resource checker's verdict
 * @param liveness the liveness checker's verdict
 */
public record RunMetrics(
    long operations,
    long acquisitions,
    long acquireFailures,
    long clearAcquireErrors,
    long meViolations,
    long tokenViolations,
    long staleWritesAccepted,
    long fencedViolations,
    long canaryViolations,
    long writesAccepted,
    long writesRejected,
    long recoveryMillis,
    Verdict fenced,
    Verdict liveness) {

  /** Extracts the metrics. */
  public static RunMetrics of(History history, CompositeResult checks) {
    long operations = history.pairs().stream().filter(p -> p.process() >= 0).count();
    long fails = history.pairs(Fn.ACQUIRE).stream().filter(p -> p.outcome() == OpType.FAIL).count();
    long clear =
        history.pairs(Fn.ACQUIRE).stream()
            .filter(p -> p.outcome() == OpType.FAIL)
            .map(OpPair::completion)
            .filter(c -> c.stringValue(Fields.ERROR).startsWith("could not acquire"))
            .count();
    return new RunMetrics(
        operations,
        history.pairs(Fn.ACQUIRE).stream().filter(OpPair::isOk).count(),
        fails,
        clear,
        checks.metric(MutualExclusionChecker.METRIC),
        checks.metric(TokenChecker.METRIC),
        checks.metric(FencedResourceChecker.STALE),
        checks.result(FencedResourceChecker.NAME).map(r -> r.violations()).orElse(0L),
        checks.metric(CanaryChecker.METRIC),
        checks.metric("writesAccepted"),
        checks.metric("writesRejected"),
        checks
            .result(LivenessChecker.NAME)
            .map(r -> r.metrics().getOrDefault(LivenessChecker.METRIC, -1L))
            .orElse(-1L),
        verdict(checks, FencedResourceChecker.NAME),
        verdict(checks, LivenessChecker.NAME));
  }

  private static Verdict verdict(CompositeResult checks, String name) {
    return checks.result(name).map(r -> r.verdict()).orElse(Verdict.UNKNOWN);
  }
}
