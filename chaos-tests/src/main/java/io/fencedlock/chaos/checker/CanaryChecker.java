package io.fencedlock.chaos.checker;

import io.fencedlock.chaos.history.Fields;
import io.fencedlock.chaos.history.Fn;
import io.fencedlock.chaos.history.History;
import io.fencedlock.chaos.history.OpPair;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The unfenced canary register, which accepts every write: a write that replaced a version other
 * than the one its writer read under the lock is a lost update, i.e. the lock failed to exclude
 * someone. FALSE here is expected under holder pauses and clock steps: it proves the fault bit.
 * Thread-safe.
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
    List<OpPair> writes = history.pairs(Fn.CANARY);
    List<String> details = new ArrayList<>();
    long lostUpdates = 0;
    long staleOverwrites = 0;
    for (OpPair w : writes) {
      if (!w.isOk()) {
        continue;
      }
      long read = w.invoke().longValue(Fields.READ_VERSION, -1);
      long overwrote = w.completion().longValue(Fields.OVERWROTE_VERSION, -1);
      long token = w.invoke().longValue(Fields.TOKEN, -1);
      long overwroteToken = w.completion().longValue(Fields.OVERWROTE_TOKEN, -1);
      if (read != overwrote) {
        lostUpdates++;
        details.add(
            String.format(
                "process %d (token %d) read version %d but overwrote version %d (token %d)",
                w.process(), token, read, overwrote, overwroteToken));
      }
      if (overwroteToken > token) {
        staleOverwrites++;
      }
    }
    return CheckResult.of(
        NAME,
        lostUpdates,
        Map.of(METRIC, lostUpdates, "canaryStaleOverwrites", staleOverwrites),
        details);
  }
}
