package io.fencedlock.chaos.history;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One history entry, after Jepsen's {@code [index time type process f value]}. Immutable and
 * thread-safe.
 *
 * @param index position in the history, dense from 0
 * @param timeNanos monotonic nanoseconds since the run began ({@link System#nanoTime()} based)
 * @param type invoke, ok, fail or info
 * @param process the logical process; {@link #NEMESIS} for the nemesis. A process whose operation
 *     ended in INFO is retired and its worker continues under a fresh id
 * @param f what the operation does
 * @param value its arguments (invoke) or result (completion); values are strings, numbers or
 *     booleans
 */
public record Op(
    long index, long timeNanos, OpType type, int process, Fn f, Map<String, Object> value) {

  /** The process id of the nemesis. */
  public static final int NEMESIS = -1;

  /** The process id of the final read after the workload. */
  public static final int READER = -2;

  /** The process id of the nemesis's actions triggered by a client reaching a targeted point. */
  public static final int TRIGGER = -3;

  /** The process id of observations (see {@link Fn#OBSERVE}). */
  public static final int OBSERVER = -4;

  public Op {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(f, "f");
    value = Map.copyOf(value);
  }

  /** Whether this op is an invocation. */
  public boolean isInvoke() {
    return type == OpType.INVOKE;
  }

  /** A numeric value field; {@code fallback} when absent. */
  public long longValue(String key, long fallback) {
    Object v = value.get(key);
    return v instanceof Number n ? n.longValue() : fallback;
  }

  /** A string value field; empty when absent. */
  public String stringValue(String key) {
    Object v = value.get(key);
    return v == null ? "" : v.toString();
  }

  /** A boolean value field; false when absent. */
  public boolean boolValue(String key) {
    return Boolean.TRUE.equals(value.get(key));
  }

  /** A process id as histories print it: a number, or the name of a harness process. */
  public static Object processName(int process) {
    return switch (process) {
      case NEMESIS -> "nemesis";
      case READER -> "reader";
      case TRIGGER -> "trigger";
      case OBSERVER -> "observer";
      default -> process;
    };
  }

  /** The resource an op concerns, or empty for ops that concern none. */
  public String resource() {
    return stringValue(Fields.RESOURCE);
  }

  /** The op as an ordered map for JSON, with the value's keys sorted for stable output. */
  public Map<String, Object> toJsonMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("index", index);
    m.put("time", timeNanos);
    m.put("type", type.name().toLowerCase(java.util.Locale.ROOT));
    m.put("process", processName(process));
    m.put("f", f.name().toLowerCase(java.util.Locale.ROOT));
    m.put("value", new java.util.TreeMap<>(value));
    return m;
  }
}
