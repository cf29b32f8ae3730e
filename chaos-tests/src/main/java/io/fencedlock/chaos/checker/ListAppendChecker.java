package io.fencedlock.chaos.checker;

import io.fencedlock.chaos.history.Entries;
import io.fencedlock.chaos.history.Fields;
import io.fencedlock.chaos.history.Fn;
import io.fencedlock.chaos.history.History;
import io.fencedlock.chaos.history.Op;
import io.fencedlock.chaos.history.OpPair;
import io.fencedlock.chaos.history.OpType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * An Elle-style list-append check of one register of one resource (run it {@link PerResource}):
 * every write appends one unique entry to the value it read, and every read is recorded (the read
 * inside each read-modify-write, and the final read). The register's versions then form one list,
 * and each observation must fit it:
 *
 * <ul>
 *   <li><b>duplicate</b>: an entry appears twice in one value;
 *   <li><b>aborted read</b>: a value holds the entry of a write that certainly did not happen
 *       (FAIL);
 *   <li><b>incompatible order</b>: a read is not a prefix of the final value (a version was
 *       overwritten: what it held is lost or reordered);
 *   <li><b>lost append</b>: an acknowledged write's entry is missing from the final value;
 *   <li><b>stale read</b> (real time): an op invoked after another completed read less than that op
 *       read, or missed the entry of a write acknowledged before it began;
 *   <li><b>non-atomic read-modify-write</b>: an acknowledged write's entry does not directly follow
 *       what it read (another write landed between its read and its put).
 * </ul>
 *
 * Writes of unknown outcome (INFO) may or may not appear, anywhere the rest allows. The fenced
 * object must pass all of these; the unfenced canary fails them under pauses (its negative
 * control). Without a final read: UNKNOWN. Pure; thread-safe.
 */
public final class ListAppendChecker implements Checker {
  private final String register;
  private final Fn writes;

  /** A read: the value, and the interval of the op it was made in. */
  private record Read(List<String> value, long invoked, long completed, int process) {}

  private ListAppendChecker(String register, Fn writes) {
    this.register = register;
    this.writes = writes;
  }

  /** The check of the fenced object: its writes are {@link Fn#WRITE}. */
  public static ListAppendChecker fenced() {
    return new ListAppendChecker("fenced", Fn.WRITE);
  }

  /** The check of the unfenced canary: its writes are {@link Fn#CANARY}. */
  public static ListAppendChecker canary() {
    return new ListAppendChecker("canary", Fn.CANARY);
  }

  @Override
  public String name() {
    return "list-append-" + register;
  }

  @Override
  public CheckResult check(History history) {
    Optional<Op> last = FinalRead.of(history);
    if (last.isEmpty()) {
      return CheckResult.unknown(name(), "no final read: the register's versions are not known");
    }
    List<String> fin = Entries.parse(last.get().stringValue(registerField()));
    List<OpPair> ws = history.pairs(writes);
    Set<String> failed = new HashSet<>();
    Set<String> acknowledged = new HashSet<>();
    for (OpPair w : ws) {
      String e = w.invoke().stringValue(Fields.ENTRY);
      if (w.outcome() == OpType.FAIL) {
        failed.add(e);
      } else if (w.isOk()) {
        acknowledged.add(e);
      }
    }
    List<Read> reads = reads(history, last.get());
    Anomalies a = new Anomalies();
    for (Read r : reads) {
      a.duplicates(r);
      a.aborted(r, failed);
      if (!isPrefix(r.value(), fin)) {
        a.add(
            "incompatibleOrder", "read " + tail(r.value()) + " is not a prefix of the final value");
      }
    }
    Set<String> present = new HashSet<>(fin);
    for (String e : acknowledged) {
      if (!present.contains(e)) {
        a.add("lostAppends", "acknowledged append " + e + " is missing from the final value");
      }
    }
    atomicity(ws, fin, a);
    staleReads(reads, ws, a);
    return a.result(name(), reads.size(), ws.size());
  }

  private String registerField() {
    return writes == Fn.WRITE ? Fields.FENCED : Fields.CANARY;
  }

  private List<Read> reads(History history, Op finalRead) {
    List<Read> reads = new ArrayList<>();
    if (writes == Fn.WRITE) {
      for (OpPair w : history.pairs(Fn.WRITE)) {
        if (w.completion() != null && w.completion().value().containsKey(Fields.READ)) {
          reads.add(read(w, w.completion().stringValue(Fields.READ)));
        }
      }
    } else {
      for (OpPair acq : history.pairs(Fn.ACQUIRE)) {
        if (acq.isOk() && acq.completion().value().containsKey(Fields.CANARY_READ)) {
          reads.add(read(acq, acq.completion().stringValue(Fields.CANARY_READ)));
        }
      }
    }
    reads.add(
        new Read(
            Entries.parse(finalRead.stringValue(registerField())),
            finalRead.timeNanos(),
            finalRead.timeNanos(),
            finalRead.process()));
    return reads;
  }

  private static Read read(OpPair p, String value) {
    return new Read(Entries.parse(value), p.invoke().timeNanos(), p.endNanos(), p.process());
  }

  /** An acknowledged write's entry must come right after what it read. */
  private static void atomicity(List<OpPair> ws, List<String> fin, Anomalies a) {
    Map<String, Integer> position = new HashMap<>();
    for (int i = 0; i < fin.size(); i++) {
      position.putIfAbsent(fin.get(i), i);
    }
    for (OpPair w : ws) {
      if (!w.isOk() || !w.completion().value().containsKey(Fields.READ)) {
        continue;
      }
      String e = w.invoke().stringValue(Fields.ENTRY);
      Integer at = position.get(e);
      List<String> read = Entries.parse(w.completion().stringValue(Fields.READ));
      if (at != null && !read.equals(fin.subList(0, at))) {
        a.add(
            "nonAtomicRmw",
            String.format(
                "process %d read %s but its append %s follows %s",
                w.process(), tail(read), e, tail(fin.subList(0, at))));
      }
    }
  }

  /**
   * Real-time order: an op that began after another ended must have read at least what that one
   * read, and every append acknowledged before it began.
   */
  private static void staleReads(List<Read> reads, List<OpPair> ws, Anomalies a) {
    List<Read> byEnd = new ArrayList<>(reads);
    byEnd.sort((x, y) -> Long.compare(x.completed(), y.completed()));
    List<OpPair> acked =
        ws.stream()
            .filter(OpPair::isOk)
            .sorted((x, y) -> Long.compare(x.endNanos(), y.endNanos()))
            .toList();
    for (Read b : reads) {
      int longest = 0;
      for (Read r : byEnd) {
        if (r.completed() >= b.invoked()) {
          break;
        }
        longest = Math.max(longest, r.value().size());
      }
      if (b.value().size() < longest) {
        a.add(
            "staleReads",
            String.format(
                "process %d read %d entries at %.3f s after a read of %d had completed",
                b.process(), b.value().size(), b.invoked() / 1e9, longest));
        continue;
      }
      Set<String> seen = new HashSet<>(b.value());
      for (OpPair w : acked) {
        if (w.endNanos() >= b.invoked()) {
          break;
        }
        String e = w.invoke().stringValue(Fields.ENTRY);
        if (!seen.contains(e)) {
          a.add(
              "staleReads",
              String.format(
                  "process %d's read at %.3f s misses %s, acknowledged at %.3f s",
                  b.process(), b.invoked() / 1e9, e, w.endNanos() / 1e9));
          break;
        }
      }
    }
  }

  private static boolean isPrefix(List<String> a, List<String> b) {
    return a.size() <= b.size() && b.subList(0, a.size()).equals(a);
  }

  private static String tail(List<String> value) {
    return value.isEmpty()
        ? "[]"
        : "["
            + (value.size() > 2 ? "… " : "")
            + String.join(";", value.subList(Math.max(0, value.size() - 2), value.size()))
            + "] ("
            + value.size()
            + ")";
  }

  /** Counts anomalies by kind and keeps examples. Not thread-safe. */
  private static final class Anomalies {
    private final Map<String, Long> counts = new HashMap<>();
    private final List<String> details = new ArrayList<>();

    void add(String kind, String detail) {
      counts.merge(kind, 1L, Long::sum);
      details.add(kind + ": " + detail);
    }

    void duplicates(Read r) {
      Set<String> seen = new HashSet<>();
      for (String e : r.value()) {
        if (!seen.add(e)) {
          add("duplicates", "entry " + e + " twice in a read by process " + r.process());
        }
      }
    }

    void aborted(Read r, Set<String> failed) {
      for (String e : r.value()) {
        if (failed.contains(e)) {
          add("abortedReads", "entry " + e + " of a failed write read by process " + r.process());
        }
      }
    }

    CheckResult result(String name, long reads, long writes) {
      long total = counts.values().stream().mapToLong(Long::longValue).sum();
      Map<String, Long> metrics = new HashMap<>(counts);
      metrics.put("reads", reads);
      metrics.put("appends", writes);
      metrics.put("anomalies", total);
      return CheckResult.of(name, total, metrics, details);
    }
  }
}
