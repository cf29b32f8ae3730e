package io.fencedlock.faultproxy;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The supported toxic types and the integer attributes each one has. Immutable.
 *
 * <p>Attribute order is the order used when echoing a toxic: every standard attribute is always
 * present, because toxiproxy-java throws on a missing one.
 *
 * <p>Extension attributes are this proxy's own: latency's {@code latency_us} and {@code jitter_us}
 * add microseconds to {@code latency} and {@code jitter}, which Toxiproxy takes in whole
 * milliseconds only, so that sub-millisecond links (a LAN's, or 1 ms ± 0.2 ms) can be modelled.
 * Toxiproxy decodes attributes with Go's JSON decoder, which ignores unknown fields, so a request
 * that sets them is accepted there and runs with whole milliseconds. They are echoed only when
 * nonzero: a toxic that does not use them looks exactly as Toxiproxy shows it.
 */
enum ToxicType {
  LATENCY("latency", List.of("latency", "jitter"), List.of("latency_us", "jitter_us")),
  BANDWIDTH("bandwidth", "rate"),
  SLOW_CLOSE("slow_close", "delay"),
  TIMEOUT("timeout", "timeout"),
  RESET_PEER("reset_peer", "timeout"),
  SLICER("slicer", "average_size", "size_variation", "delay"),
  LIMIT_DATA("limit_data", "bytes");

  private final String wireName;
  private final List<String> attributeNames;
  private final List<String> extensionNames;

  ToxicType(String wireName, String... standardNames) {
    this(wireName, List.of(standardNames), List.of());
  }

  ToxicType(String wireName, List<String> standardNames, List<String> extensionNames) {
    this.wireName = wireName;
    this.attributeNames = concat(standardNames, extensionNames);
    this.extensionNames = extensionNames;
  }

  private static List<String> concat(List<String> first, List<String> second) {
    List<String> all = new ArrayList<>(first);
    all.addAll(second);
    return List.copyOf(all);
  }

  /** The name used in the API's {@code type} field. */
  String wireName() {
    return wireName;
  }

  /** Attribute names of this type, standard ones first, in echo order. */
  List<String> attributeNames() {
    return attributeNames;
  }

  /** Whether {@code attributeName} is one of this proxy's extensions (see the class comment). */
  boolean isExtension(String attributeName) {
    return extensionNames.contains(attributeName);
  }

  /** Looks a type up by its exact API name (Toxiproxy's registry is case-sensitive). */
  static Optional<ToxicType> parse(String wireName) {
    for (ToxicType type : values()) {
      if (type.wireName.equals(wireName)) {
        return Optional.of(type);
      }
    }
    return Optional.empty();
  }
}
