package io.fencedlock.chaos.checker;

import io.fencedlock.chaos.history.History;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs a checker of one lock on each resource's sub-history ({@link History#forResource}) and
 * merges the results under the checker's name: the worst verdict, summed violations and metrics,
 * details prefixed with their resource. A history that names no resource is checked whole.
 * Thread-safe if the checker is.
 */
public final class PerResource implements Checker {
  private final Checker inner;

  public PerResource(Checker inner) {
    this.inner = inner;
  }

  @Override
  public String name() {
    return inner.name();
  }

  @Override
  public CheckResult check(History history) {
    List<String> resources = history.resources();
    if (resources.isEmpty()) {
      return inner.check(history);
    }
    Verdict verdict = Verdict.TRUE;
    long violations = 0;
    Map<String, Long> metrics = new HashMap<>();
    List<String> details = new ArrayList<>();
    for (String r : resources) {
      CheckResult one = inner.check(history.forResource(r));
      verdict = verdict.worst(one.verdict());
      violations += one.violations();
      one.metrics().forEach((k, v) -> metrics.merge(k, v, Long::sum));
      one.details().forEach(d -> details.add(r + ": " + d));
    }
    // Examples of failures first: they are what a reader of the results looks for.
    details.sort((a, b) -> Boolean.compare(isNote(a), isNote(b)));
    return new CheckResult(name(), verdict, violations, metrics, details);
  }

  private static boolean isNote(String detail) {
    return detail.contains("first acquire") || detail.contains("no final read");
  }
}
