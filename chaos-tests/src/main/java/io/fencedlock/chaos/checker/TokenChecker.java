package io.fencedlock.chaos.checker;

import io.fencedlock.chaos.history.Fields;
import io.fencedlock.chaos.history.Fn;
import io.fencedlock.chaos.history.History;
import io.fencedlock.chaos.history.OpPair;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Tokens of successful acquires are unique, and strictly larger than the token of every acquire
 * that completed before this one was invoked (real-time order). Acquires with unknown outcome are
 * ignored: their tokens were never seen. Thread-safe.
 */
public final class TokenChecker implements Checker {
  public static final String NAME = "tokens";
  public static final String METRIC = "tokenViolations";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public CheckResult check(History history) {
    List<OpPair> oks = history.pairs(Fn.ACQUIRE).stream().filter(OpPair::isOk).toList();
    List<String> details = new ArrayList<>();
    long duplicates = duplicates(oks, details);
    long disorder = realTimeDisorder(oks, details);
    long violations = duplicates + disorder;
    return CheckResult.of(
        NAME,
        violations,
        Map.of(
            METRIC,
            violations,
            "acquisitions",
            (long) oks.size(),
            "duplicateTokens",
            duplicates,
            "tokenOrderViolations",
            disorder),
        details);
  }

  private static long duplicates(List<OpPair> oks, List<String> details) {
    Map<Long, Integer> seen = new HashMap<>();
    long dups = 0;
    for (OpPair p : oks) {
      long token = token(p);
      Integer other = seen.putIfAbsent(token, p.process());
      if (other != null) {
        dups++;
        details.add(
            "token "
                + token
                + " granted to process "
                + other
                + " and again to process "
                + p.process());
      }
    }
    return dups;
  }

  private static long realTimeDisorder(List<OpPair> oks, List<String> details) {
    List<OpPair> byEnd = new ArrayList<>(oks);
    byEnd.sort(Comparator.comparingLong(OpPair::endNanos));
    List<OpPair> byStart = new ArrayList<>(oks);
    byStart.sort(Comparator.comparingLong(p -> p.invoke().timeNanos()));
    long violations = 0;
    long maxDone = Long.MIN_VALUE;
    OpPair maxPair = null;
    int done = 0;
    for (OpPair b : byStart) {
      while (done < byEnd.size() && byEnd.get(done).endNanos() < b.invoke().timeNanos()) {
        OpPair a = byEnd.get(done++);
        if (token(a) > maxDone) {
          maxDone = token(a);
          maxPair = a;
        }
      }
      if (maxPair != null && token(b) <= maxDone) {
        violations++;
        details.add(
            String.format(
                "process %d got token %d at %.3f s after process %d had completed with token %d",
                b.process(), token(b), b.invoke().timeNanos() / 1e9, maxPair.process(), maxDone));
      }
    }
    return violations;
  }

  private static long token(OpPair p) {
    return p.completion().longValue(Fields.TOKEN, -1);
  }
}
