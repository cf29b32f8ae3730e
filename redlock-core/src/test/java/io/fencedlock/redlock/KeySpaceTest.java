package io.fencedlock.redlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lettuce.core.cluster.SlotHash;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

final class KeySpaceTest {

  @ParameterizedTest
  @ValueSource(strings = {"orders:42", "{user7}:cart", "a{b}c", "x{y}z", "plain", "x{y", "{"})
  void fenceKey_anyResource_sharesTheLockKeysClusterSlot(String resource) {
    KeySpace keys = new KeySpace("");

    assertThat(SlotHash.getSlot(keys.fenceKey(resource)))
        .isEqualTo(SlotHash.getSlot(keys.lockKey(resource)));
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

  @ParameterizedTest
  @ValueSource(strings = {"{a}", "{user42}", "{a:b}"})
  void check_wholeKeyIsAHashTag_isRejectedBecauseItsFenceKeyIsThatOfTheTagsContent(
      String resource) {
    KeySpace keys = new KeySpace("");
    String inner = resource.substring(1, resource.length() - 1);
    assertThat(keys.fenceKey(inner)).isEqualTo(resource + ":fence"); // what the two would share

    assertThatThrownBy(() -> keys.checkResource("resource", resource))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("resource");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{a}:fence",
        "x{y}z:fence",
        "a}b:fence",
        "redlock:node-init",
        "redlock:node-max-token",
        "redlock:node-anything"
      })
  void check_nameOfAnotherResourcesFenceKeyOrOfANodeKey_isRejected(String resource) {
    assertThatThrownBy(() -> new KeySpace("").checkResource("resource", resource))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("resource")
        .hasMessageContaining("reserved");
  }

  @Test
  void check_unpairedSurrogate_isRejectedBecauseUtf8WouldTurnItIntoAQuestionMark() {
    KeySpace keys = new KeySpace("");
    assertThatThrownBy(() -> keys.checkResource("resource", "a\uD800"))
        .hasMessageContaining("surrogate");
    assertThatThrownBy(() -> keys.checkResource("resource", "a\uDC00b"))
        .hasMessageContaining("surrogate");
    keys.checkResource("resource", "a\uD83D\uDD12"); // a pair is one code point: fine
  }

  @Test
  void checkPrefix_nodeKeyPrefix_isRejected() {
    assertThatThrownBy(() -> KeySpace.checkPrefix("keyPrefix", "redlock:node-x:"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("keyPrefix");
    KeySpace.checkPrefix("keyPrefix", "app:");
  }

  @Test
  void check_prefixMakesTheKeyReserved_isRejected() {
    KeySpace keys = new KeySpace("redlock:node-");
    assertThatThrownBy(() -> keys.checkResource("resource", "init"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "orders:42",
        "{user7}:cart",
        "a{b}c",
        "x{y",
        "{",
        "a:fence",
        "fence",
        "redlock:orders",
        "{}",
        "}{"
      })
  void check_ordinaryNames_areAcceptedAndLockedUnderTheirOwnName(String resource) {
    KeySpace keys = new KeySpace("");
    keys.checkResource("resource", resource);
    assertThat(keys.lockKey(resource)).isEqualTo(resource);
  }

  @Test
  void fenceKey_untaggedResource_wrapsItInAHashTag() {
    assertThat(new KeySpace("").fenceKey("orders:42")).isEqualTo("{orders:42}:fence");
  }
}
