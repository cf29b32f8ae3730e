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
   * deadline and the invocation of the same process's next release. Both ends are conservative:
   * the client believes it holds at least this long, never longer.
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
      long end = start + p.completion().longValue(Fields.VALIDITY_NANOS, 0);
      end = Math.min(end, nextReleaseInvoke(pairs, i, p.process()));
      holds.add(new Hold(p.process(), p.completion().longValue(Fields.TOKEN, -1), start, Math.max(start, end)));
    }
    return holds;
  }

  private static long nextReleaseInvoke(List<OpPair> pairs, int from, int process) {
    for (int j = from + 1; j < pairs.size(); j++) {
      OpPair q = pairs.get(j);
      if (q.process() != process) {
        continue;
      }
      if (q.invoke().f() == Fn.RELEASE) {
        return q.invoke().timeNanos();
      }
      if (q.invoke().f() == Fn.ACQUIRE) {
        break; // a new acquire without release: the old lease was abandoned, validity bounds it
      }
    }
    return Long.MAX_VALUE;
  }
}
