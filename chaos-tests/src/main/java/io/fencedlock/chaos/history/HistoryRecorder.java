package io.fencedlock.chaos.history;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Appends ops with dense indices and monotonic times measured from the recorder's creation.
 * Thread-safe: workers and the nemesis record concurrently; one lock orders index and time, so the
 * history is sorted by both.
 */
public final class HistoryRecorder {
  private final long originNanos = System.nanoTime();
  private final List<Op> ops = new ArrayList<>();

  /** Records an op now and returns it. */
  public synchronized Op record(OpType type, int process, Fn f, Map<String, Object> value) {
    Op op = new Op(ops.size(), System.nanoTime() - originNanos, type, process, f, value);
    ops.add(op);
    return op;
  }

  /**
   * Records an invocation and its completion back to back, atomically, so that processes recorded
   * from several threads (observations, triggered signals) never interleave.
   */
  public synchronized Op recordPair(int process, Fn f, Map<String, Object> value) {
    record(OpType.INVOKE, process, f, value);
    return record(OpType.OK, process, f, value);
  }

  /** Converts an absolute {@link System#nanoTime()} reading to this history's time base. */
  public long relative(long nanoTime) {
    return nanoTime - originNanos;
  }

  /** The time since the recorder began, in nanoseconds. */
  public long now() {
    return System.nanoTime() - originNanos;
  }

  /** The number of ops recorded so far. */
  public synchronized int size() {
    return ops.size();
  }

  /** The time of the last op of this kind, or -1 if there is none. */
  public synchronized long lastTime(Fn f, OpType type) {
    for (int i = ops.size() - 1; i >= 0; i--) {
      Op op = ops.get(i);
      if (op.f() == f && op.type() == type) {
        return op.timeNanos();
      }
    }
    return -1;
  }

  /** A validated snapshot of everything recorded so far. */
  public synchronized History snapshot() {
    return History.of(ops);
  }
}
