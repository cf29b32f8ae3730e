package io.fencedlock.chaos.history;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * An immutable, well-formed history: indices are dense, times never decrease, every process
 * alternates invoke and completion of the same {@link Fn}, and nothing completes without an
 * invocation (as in {@code jepsen-io/history}). Thread-safe.
 */
public final class History {
  private final List<Op> ops;
  private final List<OpPair> pairs;

  private History(List<Op> ops, List<OpPair> pairs) {
    this.ops = ops;
    this.pairs = pairs;
  }

  /**
   * Validates and wraps {@code ops}.
   *
   * @throws IllegalArgumentException naming the first malformed op
   */
  public static History of(List<Op> ops) {
    List<Op> copy = List.copyOf(ops);
    Map<Integer, Integer> open = new HashMap<>();
    List<OpPair> pairs = new ArrayList<>();
    long lastTime = Long.MIN_VALUE;
    for (int i = 0; i < copy.size(); i++) {
      Op op = copy.get(i);
      if (op.index() != i) {
        throw new IllegalArgumentException("op " + i + " has index " + op.index());
      }
      if (op.timeNanos() < lastTime) {
        throw new IllegalArgumentException("op " + i + " goes back in time");
      }
      lastTime = op.timeNanos();
      Integer pending = open.get(op.process());
      if (op.isInvoke()) {
        if (pending != null) {
          throw new IllegalArgumentException(
              "op " + i + ": process " + op.process() + " invoked twice");
        }
        open.put(op.process(), pairs.size());
        pairs.add(new OpPair(op, null));
      } else {
        if (pending == null) {
          throw new IllegalArgumentException("op " + i + ": completion without invocation");
        }
        OpPair pair = pairs.get(pending);
        if (pair.invoke().f() != op.f()) {
          throw new IllegalArgumentException(
              "op " + i + ": completes " + op.f() + " but " + pair.invoke().f() + " was invoked");
        }
        pairs.set(pending, new OpPair(pair.invoke(), op));
        open.remove(op.process());
      }
    }
    return new History(copy, List.copyOf(pairs));
  }

  /** Every op in order. */
  public List<Op> ops() {
    return ops;
  }

  /** Invocations with their completions, in invocation order. */
  public List<OpPair> pairs() {
    return pairs;
  }

  /** The pairs of one {@link Fn}, in invocation order. */
  public List<OpPair> pairs(Fn f) {
    return pairs.stream().filter(p -> p.invoke().f() == f).toList();
  }

  /** The ops matching {@code filter}. */
  public List<Op> ops(Predicate<Op> filter) {
    return ops.stream().filter(filter).toList();
  }

  /** The resources the ops name, in order of first appearance. */
  public List<String> resources() {
    return pairs.stream()
        .map(p -> p.invoke().resource())
        .filter(r -> !r.isEmpty())
        .distinct()
        .toList();
  }

  /**
   * The sub-history of one resource: every pair whose invocation names it, and every pair that
   * names no resource (faults, heals, observations), re-indexed in the original order. Checkers of
   * one lock run on it unchanged.
   */
  public History forResource(String resource) {
    boolean[] keep = new boolean[ops.size()];
    for (OpPair p : pairs) {
      String r = p.invoke().resource();
      if (r.isEmpty() || r.equals(resource)) {
        keep[(int) p.invoke().index()] = true;
        p.completed().ifPresent(c -> keep[(int) c.index()] = true);
      }
    }
    List<Op> kept = new ArrayList<>();
    for (Op op : ops) {
      if (keep[(int) op.index()]) {
        kept.add(new Op(kept.size(), op.timeNanos(), op.type(), op.process(), op.f(), op.value()));
      }
    }
    return of(kept);
  }

  /** The number of ops. */
  public int size() {
    return ops.size();
  }
}
