package io.fencedlock.chaos.proxy;

import java.util.List;
import java.util.Optional;

/**
 * The supported toxic types and the integer attributes each one has. Immutable.
 *
 * <p>Attribute order is the order used when echoing a toxic: every attribute is always present,
 * because toxiproxy-java throws on a missing one.
 */
enum ToxicType {
    LATENCY("latency", "latency", "jitter"),
    BANDWIDTH("bandwidth", "rate"),
    SLOW_CLOSE("slow_close", "delay"),
    TIMEOUT("timeout", "timeout"),
    RESET_PEER("reset_peer", "timeout"),
    SLICER("slicer", "average_size", "size_variation", "delay"),
    LIMIT_DATA("limit_data", "bytes");

    private final String wireName;
    private final List<String> attributeNames;

    ToxicType(String wireName, String... attributeNames) {
        this.wireName = wireName;
        this.attributeNames = List.of(attributeNames);
    }

    /** The name used in the API's {@code type} field. */
    String wireName() {
        return wireName;
    }

    /** Attribute names of this type, in echo order. */
    List<String> attributeNames() {
        return attributeNames;
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
