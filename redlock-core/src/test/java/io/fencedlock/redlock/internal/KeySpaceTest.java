package io.fencedlock.redlock.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.cluster.SlotHash;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

final class KeySpaceTest {

  @ParameterizedTest
  @ValueSource(strings = {"orders:42", "{user7}:cart", "a{b}c", "x{y}z", "plain", "x{y", "{"})
  void fenceKey_anyResource_sharesTheLockKeysClusterSlot(String resource) {
    KeySpace keys = new KeySpace("");

    assertThat(SlotHash.getSlot(keys.fenceKey(resource))).isEqualTo(SlotHash.getSlot(keys.lockKey(resource)));
    assertThat(keys.fenceKey(resource)).isNotEqualTo(keys.lockKey(resource));
  }

  @Test
  void lockKey_defaultPrefix_isTheResourceNameItself() {
    assertThat(new KeySpace("").lockKey("orders:42")).isEqualTo("orders:42");
    assertThat(new KeySpace("app:").lockKey("orders:42")).isEqualTo("app:orders:42");
  }

  @Test
  void fenceKey_strayClosingBraceWithoutTag_isStillADistinctKey() {
    KeySpace keys = new KeySpace("");

    assertThat(keys.fenceKey("{}x")).isEqualTo("{}x:fence").isNotEqualTo(keys.lockKey("{}x"));
    assertThat(keys.fenceKey("a}b")).isEqualTo("a}b:fence");
  }

  @Test
  void fenceKey_untaggedResource_wrapsItInAHashTag() {
    assertThat(new KeySpace("").fenceKey("orders:42")).isEqualTo("{orders:42}:fence");
  }
}
