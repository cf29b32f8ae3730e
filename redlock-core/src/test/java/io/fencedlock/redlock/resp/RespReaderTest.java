package io.fencedlock.redlock.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** RESP2 replies as a node sends them, whole, split anywhere, and garbled. */
final class RespReaderTest {

  private static ByteBuffer bytes(String text) {
    return ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
  }

  /** Reads one reply and checks that it consumed the whole buffer. */
  private static Object single(String text) {
    ByteBuffer in = bytes(text);
    Object reply = RespReader.read(in);
    assertThat(in.hasRemaining()).as("bytes left after %s", text).isFalse();
    return reply;
  }

  @Test
  void simpleStrings() {
    assertThat(single("+OK\r\n")).isEqualTo("OK");
    assertThat(single("+QUEUED\r\n")).isEqualTo("QUEUED");
    assertThat(single("+O\r\n")).isEqualTo("O");
    assertThat(single("+\r\n")).isEqualTo("");
  }

  @Test
  void errorsAreRespErrorsWithTheLineAfterTheDash() {
    assertThat(single("-ERR unknown command 'FOO'\r\n"))
        .isEqualTo(new RespError("ERR unknown command 'FOO'"));
    Object noScript = single("-NOSCRIPT No matching script.\r\n");
    assertThat(noScript).isInstanceOfSatisfying(RespError.class, e -> assertThat(e.isNoScript()));
    assertThat(((RespError) noScript).isNoScript()).isTrue();
    assertThat(((RespError) single("-ERR x\r\n")).isNoScript()).isFalse();
  }

  @Test
  void integers() {
    assertThat(single(":0\r\n")).isEqualTo(0L);
    assertThat(single(":1\r\n")).isEqualTo(1L);
    assertThat(single(":-1\r\n")).isEqualTo(-1L);
    assertThat(single(":1234567890123\r\n")).isEqualTo(1234567890123L);
    assertThat(single(":-42\r\n")).isEqualTo(-42L);
    assertThat(single(":" + Long.MAX_VALUE + "\r\n")).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void bulkStrings() {
    assertThat(single("$5\r\nhello\r\n")).isEqualTo("hello");
    assertThat(single("$0\r\n\r\n")).isEqualTo("");
    assertThat(single("$-1\r\n")).isNull();
    // A bulk string may hold CRLF itself: its length, not a line end, delimits it.
    assertThat(single("$4\r\na\r\nb\r\n")).isEqualTo("a\r\nb");
    String twelve = "abcdefghijkl";
    assertThat(single("$12\r\n" + twelve + "\r\n")).isEqualTo(twelve);
  }

  @Test
  void bulkStringsAreUtf8ByLengthInBytes() {
    String text = "zürich-€-𝄞"; // 2-, 3- and 4-byte characters
    int length = text.getBytes(StandardCharsets.UTF_8).length;
    assertThat(length).isGreaterThan(text.length());
    assertThat(single("$" + length + "\r\n" + text + "\r\n")).isEqualTo(text);
  }

  @Test
  void arrays() {
    assertThat(single("*0\r\n")).isEqualTo(List.of());
    assertThat(single("*-1\r\n")).isNull();
    assertThat(single("*3\r\n:1\r\n$3\r\nfoo\r\n$-1\r\n"))
        .isEqualTo(Arrays.asList(1L, "foo", null));
    assertThat(single("*2\r\n*2\r\n:1\r\n+OK\r\n*0\r\n"))
        .isEqualTo(List.of(List.of(1L, "OK"), List.of()));
    assertThat(single("*2\r\n-ERR inside\r\n*-1\r\n"))
        .isEqualTo(Arrays.asList(new RespError("ERR inside"), null));
  }

  @Test
  void severalRepliesInOneBufferAreReadOneAtATime() {
    ByteBuffer in = bytes(SEVERAL);
    assertThat(readAll(in)).isEqualTo(SEVERAL_VALUES);
    assertThat(in.hasRemaining()).isFalse();
  }

  /** Every reply type, nested arrays and multi-byte characters. */
  private static final String SEVERAL =
      "+OK\r\n"
          + "-ERR wrong\r\n"
          + ":-17\r\n"
          + "$3\r\n€\r\n"
          + "$-1\r\n"
          + "$0\r\n\r\n"
          + "*3\r\n:1\r\n*2\r\n$2\r\nab\r\n:12\r\n*0\r\n"
          + "*-1\r\n"
          + "+fine\r\n"
          + "$10\r\n0123456789\r\n";

  private static final List<Object> SEVERAL_VALUES =
      Arrays.asList(
          "OK",
          new RespError("ERR wrong"),
          -17L,
          "€",
          null,
          "",
          List.of(1L, List.of("ab", 12L), List.of()),
          null,
          "fine",
          "0123456789");

  private static List<Object> readAll(ByteBuffer in) {
    List<Object> values = new ArrayList<>();
    while (in.hasRemaining()) {
      Object reply = RespReader.read(in);
      assertThat(reply).isNotSameAs(RespReader.INCOMPLETE);
      values.add(reply);
    }
    return values;
  }

  @Test
  void splitAtEveryByte_incompleteLeavesThePositionUntilTheReplyIsWhole() {
    byte[] all = SEVERAL.getBytes(StandardCharsets.UTF_8);
    for (int split = 0; split <= all.length; split++) {
      // The bytes arrive in two reads, as from a socket: the buffer first holds a prefix, then all.
      ByteBuffer in = ByteBuffer.allocate(all.length);
      in.put(all, 0, split).flip();
      List<Object> values = new ArrayList<>();
      drain(in, values, split);
      int parsedUpTo = in.position();
      in.compact().put(all, split, all.length - split).flip();
      drain(in, values, split);
      assertThat(in.hasRemaining())
          .as("split at %d (parsed up to %d)", split, parsedUpTo)
          .isFalse();
      assertThat(values).as("split at %d", split).isEqualTo(SEVERAL_VALUES);
    }
  }

  @Test
  void oneByteAtATime() {
    byte[] all = SEVERAL.getBytes(StandardCharsets.UTF_8);
    ByteBuffer in = ByteBuffer.allocate(all.length).flip(); // empty, in read mode
    List<Object> values = new ArrayList<>();
    for (int i = 0; i < all.length; i++) {
      in.compact().put(all[i]).flip();
      drain(in, values, i);
    }
    assertThat(values).isEqualTo(SEVERAL_VALUES);
  }

  /** Reads whole replies until INCOMPLETE, which must leave the position where it was. */
  private static void drain(ByteBuffer in, List<Object> values, int split) {
    while (in.hasRemaining()) {
      int before = in.position();
      Object reply = RespReader.read(in);
      if (reply == RespReader.INCOMPLETE) {
        assertThat(in.position())
            .as("position after INCOMPLETE, split %d", split)
            .isEqualTo(before);
        return;
      }
      assertThat(in.position()).as("a whole reply advances, split %d", split).isGreaterThan(before);
      values.add(reply);
    }
  }

  @Test
  void aLineWithoutItsEndIsIncomplete() {
    for (String partial :
        List.of(
            "+OK", "+OK\r", ":12", "$5\r\nhel", "$5\r\nhello", "$5\r\nhello\r", "*2\r\n:1\r\n")) {
      ByteBuffer in = bytes(partial);
      assertThat(RespReader.read(in)).as(partial).isSameAs(RespReader.INCOMPLETE);
      assertThat(in.position()).as(partial).isZero();
    }
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "!what\r\n", // unknown type byte
        "OK\r\n", // no type byte
        ":12a\r\n", // not a number
        ":\r\n", // empty number
        ":-\r\n",
        "$x\r\nab\r\n",
        "$2\r\nabcd\r\n", // bulk string longer than its length
        "*1\r\n?\r\n", // garbled element
        "*x\r\n",
        "*1\r\n*1\r\n*1\r\n*1\r\n*1\r\n*1\r\n*1\r\n*1\r\n*1\r\n:1\r\n" // nested too deep
      })
  void garbledInputThrows(String garbled) {
    assertThatThrownBy(() -> RespReader.read(bytes(garbled)))
        .isInstanceOf(RespProtocolException.class);
  }
}
