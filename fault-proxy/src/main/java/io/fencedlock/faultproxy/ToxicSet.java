package io.fencedlock.faultproxy;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The toxics configured on one proxy: one ordered list per direction. Names are unique across both
 * directions. This is configuration only; {@link Proxy} applies changes to live links.
 *
 * <p>Not thread-safe: confined to the I/O loop thread.
 */
final class ToxicSet {

  private final Map<Direction, List<ToxicConfig>> byDirection = new EnumMap<>(Direction.class);

  ToxicSet() {
    for (Direction direction : Direction.values()) {
      byDirection.put(direction, new ArrayList<>());
    }
  }

  /** Every toxic, upstream ones first, each direction in insertion order. */
  List<ToxicConfig> all() {
    List<ToxicConfig> all = new ArrayList<>(chain(Direction.UPSTREAM));
    all.addAll(chain(Direction.DOWNSTREAM));
    return all;
  }

  /** The chain a new link in {@code direction} starts with. */
  List<ToxicConfig> chain(Direction direction) {
    return List.copyOf(byDirection.get(direction));
  }

  Optional<ToxicConfig> find(String name) {
    return all().stream().filter(toxic -> toxic.name().equals(name)).findFirst();
  }

  boolean contains(Direction direction, ToxicType type) {
    return byDirection.get(direction).stream().anyMatch(toxic -> toxic.type() == type);
  }

  /** Appends a toxic to its direction's chain. */
  void add(ToxicConfig toxic) {
    if (find(toxic.name()).isPresent()) {
      throw ApiException.toxicExists();
    }
    byDirection.get(toxic.direction()).add(toxic);
  }

  /** Replaces the toxic of the same name, keeping its position. */
  void replace(ToxicConfig toxic) {
    List<ToxicConfig> chain = byDirection.get(toxic.direction());
    chain.replaceAll(existing -> existing.name().equals(toxic.name()) ? toxic : existing);
  }

  void remove(ToxicConfig toxic) {
    byDirection.get(toxic.direction()).remove(toxic);
  }
}
