package io.fencedlock.faultproxy;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The configuration of one toxic on one proxy, as the API shows it. Immutable and thread-safe.
 *
 * @param name unique per proxy across both directions
 * @param type the toxic type
 * @param direction the stream it acts on
 * @param toxicity probability in [0, 1] that the toxic runs on a given connection direction
 * @param attributes every attribute of {@code type}, in the type's order; absent ones are 0
 */
record ToxicConfig(
    String name,
    ToxicType type,
    Direction direction,
    float toxicity,
    Map<String, Long> attributes) {

  ToxicConfig {
    Map<String, Long> complete = new LinkedHashMap<>();
    for (String attribute : type.attributeNames()) {
      complete.put(attribute, attributes.getOrDefault(attribute, 0L));
    }
    attributes = Collections.unmodifiableMap(complete);
  }

  /** The value of one attribute of this toxic's type. */
  long attribute(String attributeName) {
    Long value = attributes.get(attributeName);
    if (value == null) {
      throw new IllegalArgumentException(type.wireName() + " has no attribute " + attributeName);
    }
    return value;
  }

  /**
   * Returns a copy with the given attributes and toxicity changed; everything else is kept, which
   * is what makes toxiproxy-java's one-attribute setters work.
   */
  ToxicConfig merged(Map<String, Long> changedAttributes, @Nullable Float newToxicity) {
    Map<String, Long> merged = new LinkedHashMap<>(attributes);
    changedAttributes.forEach(
        (key, value) -> {
          if (merged.containsKey(key)) {
            merged.put(key, value);
          }
        });
    float toxicityAfter = newToxicity == null ? toxicity : newToxicity;
    return new ToxicConfig(name, type, direction, toxicityAfter, merged);
  }
}
