package io.fencedlock.chaos.checker;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What one checker found. Immutable.
 *
 * @param checker the checker's name
 * @param verdict TRUE (property holds), FALSE (violated) or UNKNOWN (could not tell)
 * @param violations how many violations were found (0 unless FALSE)
 * @param metrics named counts for the results file
 * @param details up to a few human-readable examples and notes
 */
public record CheckResult(
    String checker,
    Verdict verdict,
    long violations,
    Map<String, Long> metrics,
    List<String> details) {
  /** How many example violations a result keeps. */
  public static final int MAX_DETAILS = 8;

  public CheckResult {
    Objects.requireNonNull(checker, "checker");
    Objects.requireNonNull(verdict, "verdict");
    metrics = Map.copyOf(metrics);
    details = List.copyOf(details.subList(0, Math.min(details.size(), MAX_DETAILS)));
  }

  /** A result whose verdict follows from the violation count. */
  public static CheckResult of(
      String checker, long violations, Map<String, Long> metrics, List<String> details) {
    return new CheckResult(
        checker, violations == 0 ? Verdict.TRUE : Verdict.FALSE, violations, metrics, details);
  }

  /** An UNKNOWN result with one note. */
  public static CheckResult unknown(String checker, String why) {
    return new CheckResult(checker, Verdict.UNKNOWN, 0, Map.of(), List.of(why));
  }
}
