package io.fencedlock.chaos.checker;

import io.fencedlock.chaos.history.Fields;
import io.fencedlock.chaos.history.Fn;
import io.fencedlock.chaos.history.History;
import io.fencedlock.chaos.history.Op;
import io.fencedlock.chaos.history.OpPair;
import io.fencedlock.chaos.history.OpType;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The fenced resource's safety: no write is accepted with a token lower than one already accepted
 * (or equal to it from another owner), and the final value equals the accepted writes applied in
 * token order, with no acknowledged write lost. Without a final read the second part cannot be
 * judged and the verdict is at best UNKNOWN. Thread-safe.
 */
public final class FencedResourceChecker implements Checker {
  public static final String NAME = "fenced-resource";
  public static final String STALE = "staleWritesAccepted";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public CheckResult check(History history) {
    List<OpPair> writes = history.pairs(Fn.WRITE);
    List<String> details = new ArrayList<>();
    long stale = staleAccepted(writes, details);
    long accepted = writes.stream().filter(OpPair::isOk).count();
    long rejected = writes.stream().filter(w -> w.outcome() == OpType.FAIL).count();
    Optional<Op> read = FinalRead.of(history);
    RegisterCheck finalState =
        read.map(r -> RegisterCheck.of("fenced", r.stringValue(Fields.FENCED), writes))
            .orElse(new RegisterCheck(0, 0, 0, List.of("no final read: final state not checked")));
    details.addAll(finalState.details());
    long violations = stale + finalState.total();
    Map<String, Long> metrics =
        Map.of(
            STALE,
            stale,
            "lostWrites",
            finalState.lost(),
            "finalStateViolations",
            finalState.total(),
            "writesAccepted",
            accepted,
            "writesRejected",
            rejected);
    CheckResult result = CheckResult.of(NAME, violations, metrics, details);
    if (read.isEmpty() && violations == 0) {
      return new CheckResult(NAME, Verdict.UNKNOWN, 0, metrics, details);
    }
    return result;
  }

  private static long staleAccepted(List<OpPair> writes, List<String> details) {
    List<OpPair> oks = writes.stream().filter(OpPair::isOk).toList();
    List<OpPair> byEnd = new ArrayList<>(oks);
    byEnd.sort(Comparator.comparingLong(OpPair::endNanos));
    long stale = 0;
    long maxToken = Long.MIN_VALUE;
    String maxOwner = "";
    int done = 0;
    for (OpPair b : oks) { // pairs come in invocation order
      while (done < byEnd.size() && byEnd.get(done).endNanos() < b.invoke().timeNanos()) {
        OpPair a = byEnd.get(done++);
        if (token(a) > maxToken) {
          maxToken = token(a);
          maxOwner = a.invoke().stringValue(Fields.OWNER);
        }
      }
      long t = token(b);
      boolean sameHolder = t == maxToken && maxOwner.equals(b.invoke().stringValue(Fields.OWNER));
      if (t < maxToken || (t == maxToken && !sameHolder)) {
        stale++;
        details.add(
            String.format(
                "write with token %d by process %d accepted at %.3f s after token %d had been"
                    + " accepted",
                t, b.process(), b.endNanos() / 1e9, maxToken));
      }
    }
    return stale;
  }

  private static long token(OpPair p) {
    return p.invoke().longValue(Fields.TOKEN, -1);
  }
}
