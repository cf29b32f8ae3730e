package io.fencedlock.redlock;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencedlock.redlock.spi.NodeKeys;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * No resource name may touch another resource's keys or a node's own keys: over names built from
 * the pieces that matter (braces, colons, the fence suffix, the node keys' prefix), the keys of
 * every accepted name are distinct from the keys of every other accepted name and from the node
 * keys.
 */
final class KeySpaceProperties {

  @Property(tries = 2000)
  void acceptedNames_ownDisjointKeys(@ForAll("names") List<String> names) {
    KeySpace keys = new KeySpace("");
    Map<String, String> owner = new HashMap<>();
    owner.put(NodeKeys.MARKER, "(node)");
    owner.put(NodeKeys.HIGH_WATER, "(node)");
    owner.put(NodeKeys.EMPTY, "(node)");
    for (String name : names.stream().distinct().toList()) {
      if (!accepted(keys, name)) {
        continue;
      }
      for (String key : List.of(keys.lockKey(name), keys.fenceKey(name))) {
        String previous = owner.putIfAbsent(key, name);
        assertThat(previous).as("key %s of %s", key, name).isNull();
      }
    }
  }

  @Provide
  Arbitrary<List<String>> names() {
    Arbitrary<String> piece =
        Arbitraries.of(
            "a", "b", "{", "}", ":", ":fence", "fence", "redlock:node-", "init", "{a}", "");
    Arbitrary<String> name =
        piece
            .list()
            .ofMinSize(1)
            .ofMaxSize(5)
            .map(parts -> String.join("", parts))
            .filter(s -> !s.isBlank());
    return name.list().ofMinSize(2).ofMaxSize(30);
  }

  private static boolean accepted(KeySpace keys, String name) {
    try {
      keys.checkResource("resource", name);
      return true;
    } catch (IllegalArgumentException reserved) {
      return false; // a name that cannot be served: it owns no keys
    }
  }
}
