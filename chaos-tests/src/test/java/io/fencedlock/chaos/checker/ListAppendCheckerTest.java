package io.fencedlock.chaos.checker;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencedlock.chaos.history.Fields;
import io.fencedlock.chaos.history.Fn;
import io.fencedlock.chaos.history.History;
import io.fencedlock.chaos.history.Op;
import io.fencedlock.chaos.history.OpType;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each anomaly of the list-append check, on hand-made histories of the fenced register. */
final class ListAppendCheckerTest {
  private final ListAppendChecker checker = ListAppendChecker.fenced();

  /** Fenced read-modify-writes with their reads, and a final read. Not thread-safe. */
  private static final class H {
    private final Histories h = new Histories();

    /** A write of {@code entry} by {@code process}, reading {@code read}, from {@code at}. */
    H write(long at, int process, String entry, String read, OpType outcome) {
      h.op(at, OpType.INVOKE, process, Fn.WRITE, Map.of(Fields.ENTRY, entry, Fields.TOKEN, 1L));
      Map<String, Object> done =
          outcome == OpType.FAIL && read == null
              ? Map.of()
              : Map.of(Fields.READ, read == null ? "" : read);
      h.op(at + 1, outcome, process, Fn.WRITE, done);
      return this;
    }

    History end(String fin) {
      h.op(100, OpType.INVOKE, Op.READER, Fn.READ, Map.of());
      h.op(101, OpType.OK, Op.READER, Fn.READ, Map.of(Fields.FENCED, fin, Fields.CANARY, ""));
      return h.build();
    }
  }

  private CheckResult check(History h) {
    return checker.check(h);
  }

  @Test
  void check_serialAppends_true() {
    var h =
        new H()
            .write(0, 0, "a", "", OpType.OK)
            .write(10, 1, "b", "a", OpType.OK)
            .write(20, 2, "c", "a;b", OpType.FAIL)
            .end("a;b");

    assertThat(check(h).verdict()).isEqualTo(Verdict.TRUE);
  }

  @Test
  void check_unknownWriteSeenOrNot_true() {
    assertThat(check(new H().write(0, 0, "a", "", OpType.INFO).end("a")).verdict())
        .isEqualTo(Verdict.TRUE);
    assertThat(check(new H().write(0, 0, "a", "", OpType.INFO).end("")).verdict())
        .isEqualTo(Verdict.TRUE);
  }

  @Test
  void check_acknowledgedAppendMissing_lostAppend() {
    CheckResult r = check(new H().write(0, 0, "a", "", OpType.OK).end(""));

    assertThat(r.verdict()).isEqualTo(Verdict.FALSE);
    assertThat(r.metrics()).containsEntry("lostAppends", 1L);
  }

  @Test
  void check_writeLandsBetweenReadAndPut_nonAtomicRmw() {
    // 1 read "" and appended b after a: a put of another writer landed in between.
    var h = new H().write(0, 0, "a", "", OpType.OK).write(1, 1, "b", "", OpType.OK).end("a;b");

    assertThat(check(h).metrics()).containsEntry("nonAtomicRmw", 1L);
  }

  @Test
  void check_readNotAPrefixOfTheFinalValue_incompatibleOrder() {
    var h = new H().write(0, 0, "x", "b;a", OpType.FAIL).end("a;b");

    assertThat(check(h).metrics()).containsEntry("incompatibleOrder", 1L);
  }

  @Test
  void check_failedWriteSeen_abortedRead() {
    var h = new H().write(0, 0, "a", "", OpType.FAIL).end("a");

    assertThat(check(h).metrics()).containsEntry("abortedReads", 1L);
  }

  @Test
  void check_readMissesAnAppendAcknowledgedBefore_staleRead() {
    var h = new H().write(0, 0, "a", "", OpType.OK).write(10, 1, "b", "", OpType.FAIL).end("a");

    assertThat(check(h).metrics()).containsEntry("staleReads", 1L);
  }

  @Test
  void check_entryTwice_duplicate() {
    assertThat(check(new H().write(0, 0, "a", "", OpType.OK).end("a;a")).metrics())
        .containsEntry("duplicates", 1L);
  }

  @Test
  void check_noFinalRead_unknown() {
    var h = new Histories().write(0, 0, 1, OpType.OK).build();

    assertThat(check(h).verdict()).isEqualTo(Verdict.UNKNOWN);
  }
}
