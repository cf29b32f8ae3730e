package io.fencedlock.faultproxy;

import java.util.Locale;
import java.util.Optional;

/** The two one-way streams of a proxied connection. Immutable. */
enum Direction {
  /** Client to upstream server. */
  UPSTREAM("upstream"),
  /** Upstream server to client. */
  DOWNSTREAM("downstream");

  private final String wireName;

  Direction(String wireName) {
    this.wireName = wireName;
  }

  /** The name used in the API's {@code stream} field. */
  String wireName() {
    return wireName;
  }

  /** Parses a {@code stream} value; Toxiproxy lower-cases it before matching. */
  static Optional<Direction> parse(String value) {
    String lower = value.toLowerCase(Locale.ROOT);
    for (Direction direction : values()) {
      if (direction.wireName.equals(lower)) {
        return Optional.of(direction);
      }
    }
    return Optional.empty();
  }
}
