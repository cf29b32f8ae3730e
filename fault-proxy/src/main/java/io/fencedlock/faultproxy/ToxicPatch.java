package io.fencedlock.faultproxy;

import com.google.gson.JsonElement;
import org.jspecify.annotations.Nullable;

/**
 * A toxic update: a partial attribute object and/or a new toxicity; name, type and stream cannot
 * change. Immutable.
 */
record ToxicPatch(@Nullable JsonElement attributes, @Nullable Float toxicity) {

  /** Merges this patch into {@code current}; absent attributes keep their values. */
  ToxicConfig applyTo(ToxicConfig current) {
    return current.merged(JsonMapping.attributes(current.type(), attributes), toxicity);
  }
}
