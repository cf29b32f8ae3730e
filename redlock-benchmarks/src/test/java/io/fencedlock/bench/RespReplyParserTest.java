package io.fencedlock.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

final class RespReplyParserTest {
  private static final String STREAM =
      "+OK\r\n$-1\r\n:1\r\n:0\r\n-ERR wrong number of arguments\r\n:-42\r\n";
  private static final List<String> EXPECTED =
      List.of(
          "STATUS 0 null",
          "NIL 0 null",
          "INTEGER 1 null",
          "INTEGER 0 null",
          "ERROR 0 ERR wrong number of arguments",
          "INTEGER -42 null");

  private final List<String> replies = new ArrayList<>();
  private final ReplyHandler recorder =
      (kind, integer, error) -> replies.add(kind + " " + integer + " " + error);

  @Test
  void parse_everyReplyKindInOneRead_handsThemOverInOrder() {
    ByteBuffer in = bytes(STREAM);

    int parsed = RespReplyParser.parse(in, recorder);

    assertThat(parsed).isEqualTo(6);
    assertThat(replies).containsExactlyElementsOf(EXPECTED);
    assertThat(in.remaining()).isZero();
  }

  @Test
  void parse_streamSplitAtEveryByte_givesTheSameRepliesAndKeepsTheIncompleteLine() {
    byte[] stream = STREAM.getBytes(StandardCharsets.US_ASCII);
    for (int split = 0; split <= stream.length; split++) {
      replies.clear();
      ByteBuffer buffer = ByteBuffer.allocate(stream.length);
      buffer.put(stream, 0, split).flip();
      RespReplyParser.parse(buffer, recorder);
      buffer.compact(); // what the connection does between reads
      buffer.put(stream, split, stream.length - split).flip();
      RespReplyParser.parse(buffer, recorder);

      assertThat(replies).as("split at byte %d", split).containsExactlyElementsOf(EXPECTED);
      assertThat(buffer.remaining()).isZero();
    }
  }

  @Test
  void parse_incompleteLine_leavesPositionAtItsStart() {
    ByteBuffer in = bytes(":12\r\n+O");

    RespReplyParser.parse(in, recorder);

    assertThat(replies).containsExactly("INTEGER 12 null");
    assertThat(in.position()).isEqualTo(5);
  }

  @Test
  void parse_crAtTheEndOfARead_waitsForTheLineFeed() {
    ByteBuffer in = bytes("+OK\r");

    assertThat(RespReplyParser.parse(in, recorder)).isZero();
    assertThat(in.position()).isZero();
  }

  @Test
  void parse_bulkString_isAProtocolError() {
    assertThatThrownBy(() -> RespReplyParser.parse(bytes("$3\r\nabc\r\n"), recorder))
        .isInstanceOf(RespProtocolException.class)
        .hasMessageContaining("bulk string");
  }

  @Test
  void parse_unknownType_isAProtocolError() {
    assertThatThrownBy(() -> RespReplyParser.parse(bytes("*1\r\n"), recorder))
        .isInstanceOf(RespProtocolException.class)
        .hasMessageContaining("'*'");
  }

  @Test
  void parse_badInteger_isAProtocolError() {
    assertThatThrownBy(() -> RespReplyParser.parse(bytes(":1x\r\n"), recorder))
        .isInstanceOf(RespProtocolException.class)
        .hasMessageContaining("not an integer");
    assertThatThrownBy(() -> RespReplyParser.parse(bytes(":\r\n"), recorder))
        .isInstanceOf(RespProtocolException.class);
  }

  @Test
  void parse_crWithoutLineFeed_isAProtocolError() {
    assertThatThrownBy(() -> RespReplyParser.parse(bytes("+OK\rX\n"), recorder))
        .isInstanceOf(RespProtocolException.class);
  }

  @Test
  void parse_noLineEndWithinTheLimit_isAProtocolError() {
    assertThatThrownBy(
            () ->
                RespReplyParser.parse(
                    bytes("+" + "x".repeat(RespReplyParser.MAX_LINE + 1)), recorder))
        .isInstanceOf(RespProtocolException.class);
  }

  private static ByteBuffer bytes(String text) {
    return ByteBuffer.wrap(text.getBytes(StandardCharsets.US_ASCII));
  }
}
