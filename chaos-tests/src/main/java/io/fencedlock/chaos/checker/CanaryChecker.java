package io.fencedlock.chaos.checker;

import io.fencedlock.chaos.history.Entries;
import io.fencedlock.chaos.history.Fields;
import io.fencedlock.chaos.history.Fn;
import io.fencedlock.chaos.history.History;
import io.fencedlock.chaos.history.Op;
import io.fencedlock.chaos.history.OpPair;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The unfenced canary of one resource, which accepts every write: each lease reads it right after
 * acquiring and writes back what it read plus its entry. An acknowledged write whose entry is not
 * in the final value was overwritten by a holder that had not seen it: a lost update, i.e. the lock
 * failed to exclude someone. FALSE here is expected under holder pauses and clock steps: it proves
 * the fault bit. Without a final read: UNKNOWN. Thread-safe.
 */
public final class CanaryChecker implements Checker {
  public static final String NAME = "canary";
  public static final String METRIC = "canaryViolations";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public CheckResult check(History history) {
    Optional<Op> read = FinalRead.of(history);
    if (read.isEmpty()) {
      return CheckResult.unknown(NAME, "no final read: lost updates not checked");
    }
    Set<String> present = new HashSet<>(Entries.parse(read.get().stringValue(Fields.CANARY)));
    List<String> details = new ArrayList<>();
    long lost = 0;
    long written = 0;
    for (OpPair w : history.pairs(Fn.CANARY)) {
      if (!w.isOk()) {
        continue;
      }
      written++;
      String entry = w.invoke().stringValue(Fields.ENTRY);
      if (!present.contains(entry)) {
        lost++;
        details.add(
            String.format(
                "process %d's write %s (token %d, acknowledged at %.3f s) was overwritten by a"
                    + " holder that had not read it",
                w.process(), entry, w.invoke().longValue(Fields.TOKEN, -1), w.endNanos() / 1e9));
      }
    }
    return CheckResult.of(
        NAME, lost, Map.of(METRIC, lost, "canaryWritesAcknowledged", written), details);
  }
}
