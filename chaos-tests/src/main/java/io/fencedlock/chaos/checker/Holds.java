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
   * deadline and the invocation of the release of the same lease (matched by owner id, since the
   * worker may have moved to a fresh process id after an unknown outcome in between; by process
   * when the release names no owner). The deadline is the latest {@link Fields#VALID_UNTIL} the
   * client reported for the lease: at the acquire, and after extends and renewals at the end of
   * later ops of the lease, each computed while the lease was valid. The client believes it holds
   * at least this long, never longer. A lease reported only after its deadline is an empty hold at
   * the deadline.
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
      String owner = p.completion().stringValue(Fields.OWNER);
      end = Math.max(end, laterDeadline(pairs, i, p.process(), owner));
      end = Math.min(end, releaseInvoke(pairs, i, p.process(), owner));
      // A client process stopped between its acquire and its report: its lease had run out when
      // the harness learned of it, so it held (if at all) only before its deadline, not after.
      start = Math.min(start, end);
      holds.add(new Hold(p.process(), p.completion().longValue(Fields.TOKEN, -1), start, end));
    }
    return holds;
  }

  /** The latest deadline reported by ops of the same lease before its release. */
  private static long laterDeadline(List<OpPair> pairs, int from, int process, String owner) {
    long latest = Long.MIN_VALUE;
    for (int j = from + 1; j < pairs.size(); j++) {
      OpPair q = pairs.get(j);
      if (!owner.isEmpty() && owner.equals(q.invoke().stringValue(Fields.OWNER))) {
        if (q.invoke().f() == Fn.RELEASE) {
          break;
        }
        if (q.completion() != null) {
          latest = Math.max(latest, q.completion().longValue(Fields.VALID_UNTIL, Long.MIN_VALUE));
        }
      } else if (q.process() == process && q.invoke().f() == Fn.ACQUIRE) {
        break;
      }
    }
    return latest;
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
