package io.fencedlock.redlock.resp;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Commands as RESP2 arrays of bulk strings, whose lengths count UTF-8 bytes. */
final class RespWriterTest {

  private static String encoded(String... command) {
    ByteBuffer out = ByteBuffer.allocate(RespWriter.maxSize(command));
    RespWriter.encode(command, out);
    return new String(out.array(), 0, out.position(), StandardCharsets.UTF_8);
  }

  @net.jqwik.api.Example
  void asciiArguments() {
    assertThat(encoded("SET", "k", "v")).isEqualTo("*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$1\r\nv\r\n");
    assertThat(encoded("PING")).isEqualTo("*1\r\n$4\r\nPING\r\n");
    assertThat(encoded("GET", "")).isEqualTo("*2\r\n$3\r\nGET\r\n$0\r\n\r\n");
  }

  @net.jqwik.api.Example
  void lengthsOfTenAndMore() {
    String ten = "0123456789";
    String hundredAndOne = "x".repeat(101);
    String[] twelveArguments = new String[12];
    Arrays.fill(twelveArguments, "a");
    assertThat(encoded("SET", ten)).isEqualTo("*2\r\n$3\r\nSET\r\n$10\r\n" + ten + "\r\n");
    assertThat(encoded(hundredAndOne)).isEqualTo("*1\r\n$101\r\n" + hundredAndOne + "\r\n");
    assertThat(encoded(twelveArguments)).startsWith("*12\r\n$1\r\na\r\n");
    assertThat(encoded("x".repeat(1_000_000))).startsWith("*1\r\n$1000000\r\nxxx");
  }

  @net.jqwik.api.Example
  void nonAsciiArgumentsCountUtf8Bytes() {
    assertThat(encoded("é")).isEqualTo("*1\r\n$2\r\né\r\n");
    assertThat(encoded("€")).isEqualTo("*1\r\n$3\r\n€\r\n");
    assertThat(encoded("𝄞")).isEqualTo("*1\r\n$4\r\n𝄞\r\n");
    String mixed = "zürich-€-𝄞-ok"; // 14 chars, 2+3+4 byte characters
    int bytes = mixed.getBytes(StandardCharsets.UTF_8).length;
    assertThat(encoded("SET", mixed))
        .isEqualTo("*2\r\n$3\r\nSET\r\n$" + bytes + "\r\n" + mixed + "\r\n");
  }

  /** What a node would read: the command parses back, as an array, to its arguments. */
  @Property(tries = 300)
  void roundTripsAndStaysWithinMaxSize(@ForAll("commands") List<String> command) {
    String[] arguments = command.toArray(String[]::new);
    int bound = RespWriter.maxSize(arguments);
    // A buffer of exactly maxSize: writing past it throws BufferOverflowException.
    ByteBuffer out = ByteBuffer.allocate(bound);
    RespWriter.encode(arguments, out);
    assertThat(out.position()).isLessThanOrEqualTo(bound);

    // Bulk strings and arrays are framed alike in requests and replies, so the reply parser reads
    // a request back; lone surrogates are not UTF-8 and come back as '?'.
    out.flip();
    Object parsed = RespReader.read(out);
    assertThat(out.hasRemaining()).isFalse();
    List<String> expected =
        command.stream()
            .map(a -> new String(a.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8))
            .toList();
    assertThat(parsed).isEqualTo(expected);
  }

  /** The exact bytes, as a caller sends them to every node of a step. */
  @Property(tries = 100)
  void encodedAlone_isTheBufferedEncodingExactly(@ForAll("commands") List<String> command) {
    String[] arguments = command.toArray(String[]::new);
    ByteBuffer out = ByteBuffer.allocate(RespWriter.maxSize(arguments));
    RespWriter.encode(arguments, out);
    assertThat(RespWriter.encode(arguments)).isEqualTo(Arrays.copyOf(out.array(), out.position()));
  }

  @Provide
  Arbitrary<List<String>> commands() {
    Arbitrary<String> ascii = Arbitraries.strings().ascii().ofMaxLength(40);
    Arbitrary<String> anyChars = Arbitraries.strings().all().ofMaxLength(40);
    // Surrogate pairs (4 UTF-8 bytes for 2 chars) and 3-byte characters, the worst cases per char.
    Arbitrary<String> pairs =
        Arbitraries.integers()
            .between(0x10000, 0x10FFFF)
            .map(Character::toString)
            .list()
            .ofMaxSize(20)
            .map(cps -> String.join("", cps));
    Arbitrary<String> threeByte =
        Arbitraries.chars()
            .range('\u0800', '\uD7FF')
            .list()
            .ofMaxSize(30)
            .map(RespWriterTest::join);
    Arbitrary<String> longAscii =
        Arbitraries.strings().withCharRange('a', 'z').ofMinLength(9).ofMaxLength(2000);
    return Arbitraries.oneOf(ascii, anyChars, pairs, threeByte, longAscii)
        .list()
        .ofMinSize(1)
        .ofMaxSize(15);
  }

  private static String join(List<Character> chars) {
    StringBuilder text = new StringBuilder();
    chars.forEach(text::append);
    return text.toString();
  }

  @net.jqwik.api.Example
  void maxSizeBoundsTheWorstCharacters() {
    // Only 3-byte chars, and only surrogate pairs: the most UTF-8 bytes per char there are.
    String[] worst = {"€".repeat(1000), "\uD834\uDD1E".repeat(1000)};
    ByteBuffer out = ByteBuffer.allocate(RespWriter.maxSize(worst));
    RespWriter.encode(worst, out);
    assertThat(out.position()).isLessThanOrEqualTo(RespWriter.maxSize(worst));
  }
}
