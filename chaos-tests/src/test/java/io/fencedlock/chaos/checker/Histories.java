package io.fencedlock.chaos.checker;

import io.fencedlock.chaos.history.Entries;
import io.fencedlock.chaos.history.Fields;
import io.fencedlock.chaos.history.Fn;
import io.fencedlock.chaos.history.History;
import io.fencedlock.chaos.history.Op;
import io.fencedlock.chaos.history.OpType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Builds hand-made histories with explicit times (milliseconds) for checker tests. Not thread-safe.
 */
final class Histories {
  private final List<Op> ops = new ArrayList<>();

  Histories op(long millis, OpType type, int process, Fn f, Map<String, Object> value) {
    ops.add(new Op(ops.size(), millis * 1_000_000, type, process, f, value));
    return this;
  }

  /**
   * A successful acquire invoked at {@code at}, returning at {@code at + 1} with the given
   * validity.
   */
  Histories acquire(long at, int process, long token, long validityMillis) {
    op(at, OpType.INVOKE, process, Fn.ACQUIRE, Map.of());
    return op(
        at + 1,
        OpType.OK,
        process,
        Fn.ACQUIRE,
        Map.of(
            Fields.TOKEN,
            token,
            Fields.OWNER,
            owner(process),
            Fields.VALIDITY_NANOS,
            validityMillis * 1_000_000));
  }

  Histories release(long at, int process) {
    op(at, OpType.INVOKE, process, Fn.RELEASE, Map.of());
    return op(at + 1, OpType.OK, process, Fn.RELEASE, Map.of(Fields.WAS_VALID, true));
  }

  /** A fenced write with the given outcome, invoked at {@code at}, completing at {@code at + 1}. */
  Histories write(long at, int process, long token, OpType outcome) {
    op(
        at,
        OpType.INVOKE,
        process,
        Fn.WRITE,
        Map.of(
            Fields.TOKEN,
            token,
            Fields.OWNER,
            owner(process),
            Fields.ENTRY,
            Entries.entry(token, owner(process))));
    return op(at + 1, outcome, process, Fn.WRITE, Map.of());
  }

  /** A canary write by the holder of {@code token}, acknowledged at {@code at + 1}. */
  Histories canary(long at, int process, long token) {
    op(
        at,
        OpType.INVOKE,
        process,
        Fn.CANARY,
        Map.of(
            Fields.TOKEN,
            token,
            Fields.OWNER,
            owner(process),
            Fields.ENTRY,
            Entries.entry(token, owner(process))));
    return op(at + 1, OpType.OK, process, Fn.CANARY, Map.of());
  }

  /**
   * The final read, with the fenced object holding the entries of these (process, token) writes.
   */
  Histories finalRead(long at, long[]... processAndToken) {
    String value = value(processAndToken);
    return finalRead(at, value, value);
  }

  /** The final read, with the given values of the fenced object and the canary. */
  Histories finalRead(long at, String fenced, String canary) {
    op(at, OpType.INVOKE, Op.READER, Fn.READ, Map.of());
    return op(
        at + 1,
        OpType.OK,
        Op.READER,
        Fn.READ,
        Map.of(Fields.FENCED, fenced, Fields.CANARY, canary));
  }

  /** The register value holding the entries of these (process, token) writes, in order. */
  static String value(long[]... processAndToken) {
    String value = "";
    for (long[] pt : processAndToken) {
      value = Entries.append(value, Entries.entry(pt[1], owner((int) pt[0])));
    }
    return value;
  }

  Histories finalHeal(long at) {
    op(at, OpType.INVOKE, Op.NEMESIS, Fn.FAULT_STOP, Map.of(Fields.FINAL_HEAL, true));
    return op(at, OpType.OK, Op.NEMESIS, Fn.FAULT_STOP, Map.of(Fields.FINAL_HEAL, true));
  }

  History build() {
    return History.of(ops);
  }

  static String owner(int process) {
    return String.format("%08x", 0xabc00000 + process) + "0".repeat(24);
  }

  static long[] w(int process, long token) {
    return new long[] {process, token};
  }
}
