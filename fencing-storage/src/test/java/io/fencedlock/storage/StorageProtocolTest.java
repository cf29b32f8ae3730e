package io.fencedlock.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

final class StorageProtocolTest {

  @ParameterizedTest
  @ValueSource(strings = {"k", "a.b", "A-Z_0:9", "...", ".hidden", "x.."})
  void isValidKey_allowedCharacters_true(String key) {
    assertThat(StorageProtocol.isValidKey(key)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {"", ".", "..", "a b", "a/b", "a%20b", "ä", "a\nb", "a?b"})
  void isValidKey_otherKeys_false(String key) {
    assertThat(StorageProtocol.isValidKey(key)).isFalse();
  }

  @Test
  void isValidKey_lengthLimit_200AllowedAnd201Not() {
    assertThat(StorageProtocol.isValidKey("k".repeat(200))).isTrue();
    assertThat(StorageProtocol.isValidKey("k".repeat(201))).isFalse();
    assertThat(StorageProtocol.isValidKey(null)).isFalse();
  }

  @Test
  void isValidOwner_visibleAsciiUpTo128_true() {
    assertThat(StorageProtocol.isValidOwner("0123456789abcdef0123456789abcdef")).isTrue();
    assertThat(StorageProtocol.isValidOwner("o".repeat(128))).isTrue();
    assertThat(StorageProtocol.isValidOwner("!~")).isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {"", " ", "a b", "\t", "ö"})
  void isValidOwner_blankOrInvisible_false(String owner) {
    assertThat(StorageProtocol.isValidOwner(owner)).isFalse();
  }

  @Test
  void isValidOwner_tooLongOrNull_false() {
    assertThat(StorageProtocol.isValidOwner("o".repeat(129))).isFalse();
    assertThat(StorageProtocol.isValidOwner(null)).isFalse();
  }

  @Test
  void parseToken_decimal_parsed() {
    assertThat(StorageProtocol.parseToken("0")).isZero();
    assertThat(StorageProtocol.parseToken("007")).isEqualTo(7);
    assertThat(StorageProtocol.parseToken("9223372036854775807")).isEqualTo(Long.MAX_VALUE);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "-1", "+1", "1.0", "1e3", " 1", "0x10", "9223372036854775808"})
  void parseToken_notPlainDecimalLong_throwsIllegalArgument(String text) {
    assertThatThrownBy(() -> StorageProtocol.parseToken(text))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void requireValidToken_negative_throwsIllegalArgument() {
    assertThat(StorageProtocol.requireValidToken(0)).isZero();
    assertThatThrownBy(() -> StorageProtocol.requireValidToken(-1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("token");
  }
}
