package io.fencedlock.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

final class RespClientTest {

  @Test
  void encode_command_isArrayOfBulkStrings() {
    byte[] encoded = RespClient.encode("SET", "k", "grüße", "");

    assertThat(new String(encoded, StandardCharsets.UTF_8))
        .isEqualTo("*4\r\n$3\r\nSET\r\n$1\r\nk\r\n$7\r\ngrüße\r\n$0\r\n\r\n");
  }

  @Test
  void read_simpleString_returnsString() throws IOException {
    assertThat(read("+PONG\r\n")).isEqualTo("PONG");
  }

  @Test
  void read_errorReply_throwsWithServerMessage() {
    assertThatThrownBy(() -> read("-WRONGTYPE Operation against a key\r\n"))
        .isInstanceOf(RedisReplyException.class)
        .hasMessage("WRONGTYPE Operation against a key");
  }

  @Test
  void read_integer_returnsLong() throws IOException {
    assertThat(read(":-42\r\n")).isEqualTo(-42L);
  }

  @Test
  void read_bulkStringWithCrlfAndUtf8_returnsExactContent() throws IOException {
    assertThat(read("$8\r\na\r\nüber\r\n")).isEqualTo("a\r\nüber");
  }

  @Test
  void read_nilBulkString_returnsNull() throws IOException {
    assertThat(read("$-1\r\n")).isNull();
  }

  @Test
  void read_nilArray_returnsNull() throws IOException {
    assertThat(read("*-1\r\n")).isNull();
  }

  @Test
  void read_nestedArray_returnsNestedLists() throws IOException {
    Object reply = read("*3\r\n:1\r\n*2\r\n+a\r\n$-1\r\n$1\r\nb\r\n");

    assertThat(reply).isEqualTo(List.of(1L, Arrays.asList("a", null), "b"));
  }

  @Test
  void read_errorInsideArray_throws() {
    assertThatThrownBy(() -> read("*2\r\n:1\r\n-ERR boom\r\n"))
        .isInstanceOf(RedisReplyException.class)
        .hasMessage("ERR boom");
  }

  @Test
  void read_truncatedBulkString_throwsEof() {
    assertThatThrownBy(() -> read("$10\r\nabc")).isInstanceOf(EOFException.class);
  }

  @Test
  void read_unknownTypeByte_throwsIoException() {
    assertThatThrownBy(() -> read("?what\r\n"))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("not a RESP2 reply");
  }

  private static Object read(String wire) throws IOException {
    return RespClient.read(new ByteArrayInputStream(wire.getBytes(StandardCharsets.UTF_8)));
  }
}
