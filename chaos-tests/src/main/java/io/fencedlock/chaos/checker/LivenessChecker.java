package io.fencedlock.chaos.checker;

import io.fencedlock.chaos.history.Fields;
import io.fencedlock.chaos.history.Fn;
import io.fencedlock.chaos.history.History;
import io.fencedlock.chaos.history.Op;
import io.fencedlock.chaos.history.OpPair;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * After the final heal, some client acquires the lock within a bound. UNKNOWN if the history has no
 * final heal. Thread-safe.
 */
public final class LivenessChecker implements Checker {
  public static final String NAME = "liveness";
  public static final String METRIC = "recoveryMillis";

  private final long boundNanos;

  /**
   * @param boundNanos the longest acceptable time from the final heal to an acquire
   */
  public LivenessChecker(long boundNanos) {
    this.boundNanos = boundNanos;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public CheckResult check(History history) {
    Optional<Op> heal =
        history.ops(op -> op.f() == Fn.FAULT_STOP && op.boolValue(Fields.FINAL_HEAL)).stream()
            .reduce((a, b) -> b);
    if (heal.isEmpty()) {
      return CheckResult.unknown(NAME, "no final heal in the history");
    }
    long healed = heal.get().timeNanos();
    Optional<Long> first =
        history.pairs(Fn.ACQUIRE).stream()
            .filter(OpPair::isOk)
            .map(OpPair::endNanos)
            .filter(t -> t >= healed)
            .min(Long::compare);
    if (first.isEmpty()) {
      return CheckResult.of(
          NAME, 1, Map.of(METRIC, -1L), List.of("no acquire succeeded after the final heal"));
    }
    long took = first.get() - healed;
    long violations = took <= boundNanos ? 0 : 1;
    return CheckResult.of(
        NAME,
        violations,
        Map.of(METRIC, took / 1_000_000),
        List.of(
            String.format(
                "first acquire %.0f ms after the final heal (bound %.0f ms)",
                took / 1e6, boundNanos / 1e6)));
  }
}
