package io.fencedlock.chaos.checker;

import io.fencedlock.chaos.history.Fields;
import io.fencedlock.chaos.history.Fn;
import io.fencedlock.chaos.history.History;
import io.fencedlock.chaos.history.OpPair;
import java.util.ArrayList;
import java.util.List;

/** Derives believed-held intervals from a history. Pure functions; thread-safe. */
public final class Holds {
  private Holds() {}

  /**
   * One hold per successful acquire: from the acquire's completion to the earlier of the validity
   * deadline (exact when the op carries {@link Fields#VALID_UNTIL}) and the invocation of the
   * release of the same lease (matched by owner id, since the worker may have moved to a fresh
   * process id after an unknown outcome in between; by process when the release names no owner).
   * The client believes it holds at least this long, never longer.
   */
  public static List<Hold> of(History history) {
    List<OpPair> pairs = history.pairs();
    List<Hold> holds = new ArrayList<>();
    for (int i = 0; i < pairs.size(); i++) {
      OpPair p = pairs.get(i);
      if (p.invoke().f() != Fn.ACQUIRE || !p.isOk()) {
        continue;
      }
      long start = p.completion().timeNanos();
      long end =
          p.completion()
              .longValue(
                  Fields.VALID_UNTIL, start + p.completion().longValue(Fields.VALIDITY_NANOS, 0));
      end =
          Math.min(
              end, releaseInvoke(pairs, i, p.process(), p.completion().stringValue(Fields.OWNER)));
      holds.add(
          new Hold(
              p.process(),
              p.completion().longValue(Fields.TOKEN, -1),
              start,
              Math.max(start, end)));
    }
    return holds;
  }

  private static long releaseInvoke(List<OpPair> pairs, int from, int process, String owner) {
    for (int j = from + 1; j < pairs.size(); j++) {
      OpPair q = pairs.get(j);
      String releasing = q.invoke().stringValue(Fields.OWNER);
      if (q.invoke().f() == Fn.RELEASE
          && (releasing.isEmpty() ? q.process() == process : releasing.equals(owner))) {
        return q.invoke().timeNanos();
      }
      if (q.process() == process && q.invoke().f() == Fn.ACQUIRE) {
        break; // a new acquire without release: the old lease was abandoned, validity bounds it
      }
    }
    return Long.MAX_VALUE;
  }
}
