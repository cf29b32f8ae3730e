package io.fencedlock.chaos.checker;

import io.fencedlock.chaos.history.History;
import java.util.ArrayList;
import java.util.List;

/** Composition of checkers. Stateless and thread-safe. */
public final class Checkers {
  private Checkers() {}

  /**
   * Runs every checker on the history and keeps the worst verdict. A checker that throws yields
   * UNKNOWN with the exception in its details, so one broken checker cannot hide another's FALSE.
   */
  public static CompositeResult compose(List<Checker> checkers, History history) {
    List<CheckResult> results = new ArrayList<>();
    Verdict worst = Verdict.TRUE;
    for (Checker checker : checkers) {
      CheckResult result = safeCheck(checker, history);
      results.add(result);
      worst = worst.worst(result.verdict());
    }
    return new CompositeResult(worst, results);
  }

  private static CheckResult safeCheck(Checker checker, History history) {
    try {
      return checker.check(history);
    } catch (RuntimeException e) {
      // A checker bug must not pass as "valid": report it as unknown, with the cause.
      return CheckResult.unknown(checker.name(), "checker threw " + e);
    }
  }

  /**
   * The checkers of one lock, each run on every resource: mutual exclusion, tokens, the fenced
   * resource, its list-append check, the canary and its list-append check, the store's durability,
   * and liveness within {@code livenessBoundNanos}.
   */
  public static List<Checker> standard(long livenessBoundNanos) {
    return List.of(
        new PerResource(new MutualExclusionChecker()),
        new PerResource(new TokenChecker()),
        new PerResource(new FencedResourceChecker()),
        new PerResource(ListAppendChecker.fenced()),
        new PerResource(new CanaryChecker()),
        new PerResource(ListAppendChecker.canary()),
        new PerResource(new DurabilityChecker()),
        new LivenessChecker(livenessBoundNanos));
  }

  /** {@link #standard} and whether the faults bit ({@link FaultEffectChecker}). */
  public static List<Checker> all(
      long livenessBoundNanos, int clients, long nodeTimeoutMillis, long slackMillis) {
    List<Checker> all = new ArrayList<>(standard(livenessBoundNanos));
    all.add(new FaultEffectChecker(clients, nodeTimeoutMillis, slackMillis));
    return List.copyOf(all);
  }
}
