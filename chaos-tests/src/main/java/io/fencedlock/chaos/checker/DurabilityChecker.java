package io.fencedlock.chaos.checker;

import io.fencedlock.chaos.history.Fields;
import io.fencedlock.chaos.history.Fn;
import io.fencedlock.chaos.history.History;
import io.fencedlock.chaos.history.Op;
import io.fencedlock.chaos.history.OpPair;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The storage service keeps its highest token across crashes: every time its object's highest token
 * is read (after each restart of the service, and in the final read), it is at least the token of
 * every write acknowledged before. A store that forgot it would accept the writes of a holder that
 * paused across the crash. Run it {@link PerResource}. Thread-safe.
 */
public final class DurabilityChecker implements Checker {
  public static final String NAME = "storage-durability";
  public static final String METRIC = "durabilityViolations";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public CheckResult check(History history) {
    List<OpPair> acked = history.pairs(Fn.WRITE).stream().filter(OpPair::isOk).toList();
    List<Op> probes = new ArrayList<>();
    for (Op op : history.ops()) {
      boolean restart =
          op.f() == Fn.OBSERVE
              && !op.isInvoke()
              && "storage-restart".equals(op.stringValue(Fields.OBSERVED));
      boolean finalRead = op.f() == Fn.READ && op.type() == io.fencedlock.chaos.history.OpType.OK;
      if ((restart || finalRead) && op.value().containsKey(Fields.STORED_TOKEN)) {
        probes.add(op);
      }
    }
    long violations = 0;
    long unreadable = 0;
    List<String> details = new ArrayList<>();
    for (Op probe : probes) {
      long stored = probe.longValue(Fields.STORED_TOKEN, -1);
      if (stored == -2) {
        unreadable++;
        continue;
      }
      long required = Long.MIN_VALUE;
      for (OpPair w : acked) {
        if (w.endNanos() < probe.timeNanos()) {
          required = Math.max(required, w.invoke().longValue(Fields.TOKEN, -1));
        }
      }
      if (required != Long.MIN_VALUE && stored < required) {
        violations++;
        details.add(
            String.format(
                "at %.3f s (%s) the store's highest token was %d, below the acknowledged %d",
                probe.timeNanos() / 1e9,
                probe.f() == Fn.READ ? "final read" : "after a restart",
                stored,
                required));
      }
    }
    CheckResult result =
        CheckResult.of(
            NAME,
            violations,
            Map.of(
                METRIC,
                violations,
                "tokenProbes",
                (long) probes.size(),
                "unreadableProbes",
                unreadable),
            details);
    return violations == 0 && unreadable > 0 && probes.size() == unreadable
        ? new CheckResult(NAME, Verdict.UNKNOWN, 0, result.metrics(), details)
        : result;
  }
}
