package io.fencedlock.chaos.client;

import io.fencedlock.chaos.history.OpType;
import java.util.Map;
import java.util.Objects;

/**
 * How an operation ended, as reported by a {@link Client}. Immutable.
 *
 * @param type OK, FAIL or INFO (never INVOKE)
 * @param value the result
 */
public record Completion(OpType type, Map<String, Object> value) {
  public Completion {
    Objects.requireNonNull(type, "type");
    if (type == OpType.INVOKE) {
      throw new IllegalArgumentException("a completion cannot be an invocation");
    }
    value = Map.copyOf(value);
  }

  public static Completion ok(Map<String, Object> value) {
    return new Completion(OpType.OK, value);
  }

  public static Completion fail(Map<String, Object> value) {
    return new Completion(OpType.FAIL, value);
  }
}
