package io.fencedlock.faultproxy;

import com.google.gson.JsonElement;
import java.util.Map;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * A toxic create request. Attributes stay raw until the type is known, because Toxiproxy only
 * decodes them after checking stream, type and name. Immutable.
 */
record ToxicRequest(
    @Nullable String name,
    @Nullable String type,
    @Nullable String stream,
    @Nullable Float toxicity,
    @Nullable JsonElement attributes) {

  /**
   * Validates in Toxiproxy's order (stream, type, the caller's name check, attributes) and builds
   * the toxic with its defaults: downstream, toxicity 1, name {@code <type>_<stream>}.
   *
   * @param nameTaken tells whether a toxic name already exists on the proxy
   */
  ToxicConfig toConfig(Predicate<String> nameTaken) {
    String streamText = stream == null ? "downstream" : stream;
    Direction direction = Direction.parse(streamText).orElseThrow(ApiException::invalidStream);
    String typeText = type == null ? "" : type;
    String toxicName = name == null || name.isEmpty() ? typeText + "_" + streamText : name;
    ToxicType toxicType = ToxicType.parse(typeText).orElseThrow(ApiException::invalidToxicType);
    if (nameTaken.test(toxicName)) {
      throw ApiException.toxicExists();
    }
    Map<String, Long> values = JsonMapping.attributes(toxicType, attributes);
    float chance = toxicity == null ? 1.0f : toxicity;
    return new ToxicConfig(toxicName, toxicType, direction, chance, values);
  }
}
