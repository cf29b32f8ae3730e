package io.fencedlock.chaos.checker;

import java.util.List;
import java.util.Optional;

/**
 * The results of several checkers and their worst verdict. Immutable.
 *
 * @param verdict the worst of the individual verdicts (TRUE when there are none)
 * @param results each checker's result, in composition order
 */
public record CompositeResult(Verdict verdict, List<CheckResult> results) {
  public CompositeResult {
    results = List.copyOf(results);
  }

  /** The result of the named checker. */
  public Optional<CheckResult> result(String checker) {
    return results.stream().filter(r -> r.checker().equals(checker)).findFirst();
  }

  /** A metric reported by any checker; 0 when no checker reports it. */
  public long metric(String name) {
    return results.stream()
        .map(r -> r.metrics().get(name))
        .filter(v -> v != null)
        .findFirst()
        .orElse(0L);
  }
}
