package io.fencedlock.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

final class RespCommandsTest {

  @Test
  void set_writesARespArrayWithTheOwnerInHex() {
    ByteBuffer out = ByteBuffer.allocate(RespCommands.capacityFor("bench:s1"));

    RespCommands.set(out, "bench:s1", 0x0123456789abcdefL, 10_000);

    assertThat(text(out))
        .isEqualTo(
            "*6\r\n$3\r\nSET\r\n$8\r\nbench:s1\r\n$16\r\n0123456789abcdef\r\n"
                + "$2\r\nNX\r\n$2\r\nPX\r\n$5\r\n10000\r\n");
  }

  @Test
  void transfer_isSetWithoutNx() {
    ByteBuffer out = ByteBuffer.allocate(RespCommands.capacityFor("bench:s3"));

    RespCommands.transfer(out, "bench:s3", 0xabcL, 10_000);

    assertThat(text(out))
        .isEqualTo(
            "*5\r\n$3\r\nSET\r\n$8\r\nbench:s3\r\n$16\r\n0000000000000abc\r\n"
                + "$2\r\nPX\r\n$5\r\n10000\r\n");
  }

  @Test
  void handOver_isEvalshaOfTheHandOverScriptWithBothOwners() {
    ByteBuffer out = ByteBuffer.allocate(RespCommands.capacityFor("k"));

    RespCommands.handOver(out, "k", 1L, 2L, 10_000);

    assertThat(RespCommands.HAND_OVER_SHA)
        .as("sha1sum of the script's text")
        .isEqualTo("1dcb93cdde916ac8de97fc07cfa10f69a7b95458");

    assertThat(text(out))
        .isEqualTo(
            "*7\r\n$7\r\nEVALSHA\r\n$40\r\n"
                + RespCommands.HAND_OVER_SHA
                + "\r\n$1\r\n1\r\n$1\r\nk\r\n$16\r\n0000000000000001\r\n"
                + "$16\r\n0000000000000002\r\n$5\r\n10000\r\n");
  }

  @Test
  void compareAndDelete_isEvalshaOfTheReleaseScriptWithTheOwner() {
    ByteBuffer out = ByteBuffer.allocate(RespCommands.capacityFor("k"));

    RespCommands.compareAndDelete(out, "k", 1L);

    assertThat(RespCommands.RELEASE_SHA)
        .as("sha1sum of the script's text")
        .isEqualTo("6fbe84d1140fd2047394924af9d845b83c070bec");
    assertThat(text(out))
        .isEqualTo(
            "*5\r\n$7\r\nEVALSHA\r\n$40\r\n"
                + RespCommands.RELEASE_SHA
                + "\r\n$1\r\n1\r\n$1\r\nk\r\n$16\r\n0000000000000001\r\n");
  }

  @Test
  void takeFenced_isEvalshaOfTheTakeScriptWithTheFenceKeyTtlTokenAndPredecessor() {
    ByteBuffer out = ByteBuffer.allocate(RespCommands.capacityFor("k"));

    RespCommands.takeFenced(out, "k", 2L, 10_000, 42, 1L);

    assertThat(RespCommands.TAKE_SHA)
        .as("sha1sum of the script's text")
        .isEqualTo("df3bea4f25e2b56fbd63dbbf78e8942f43a750d3");
    assertThat(text(out))
        .isEqualTo(
            "*9\r\n$7\r\nEVALSHA\r\n$40\r\n"
                + RespCommands.TAKE_SHA
                + "\r\n$1\r\n2\r\n$1\r\nk\r\n$7\r\nk:fence\r\n$16\r\n0000000000000002\r\n"
                + "$5\r\n10000\r\n$2\r\n42\r\n$16\r\n0000000000000001\r\n");
  }

  @Test
  void acquireFenced_isEvalshaOfTheAcquireScriptWithTheFenceKeyTtlAndToken() {
    ByteBuffer out = ByteBuffer.allocate(RespCommands.capacityFor("k"));

    RespCommands.acquireFenced(out, "k", 2L, 10_000, 42);

    assertThat(RespCommands.ACQUIRE_SHA)
        .as("sha1sum of the script's text")
        .isEqualTo("eb3b3ced44ab3fa20163075102371487dd1cb8f8");
    assertThat(RespCommands.TAKE_SCRIPT).endsWith(" " + RespCommands.ACQUIRE_SCRIPT);
    assertThat(text(out))
        .isEqualTo(
            "*8\r\n$7\r\nEVALSHA\r\n$40\r\n"
                + RespCommands.ACQUIRE_SHA
                + "\r\n$1\r\n2\r\n$1\r\nk\r\n$7\r\nk:fence\r\n$16\r\n0000000000000002\r\n"
                + "$5\r\n10000\r\n$2\r\n42\r\n");
  }

  @Test
  void takeFenced_longNonAsciiKeyAndLargestNumbers_fitTheCapacity() {
    // 300 bytes of UTF-8 in 100 chars: more than the capacity of a key that appears once.
    String key = "€".repeat(100);
    ByteBuffer out = ByteBuffer.allocate(RespCommands.capacityFor(key));

    RespCommands.takeFenced(out, key, -1L, Long.MAX_VALUE, Long.MAX_VALUE, -1L);

    assertThat(text(out))
        .contains(
            "$" + (key.getBytes(StandardCharsets.UTF_8).length + 6) + "\r\n" + key + ":fence\r\n")
        .endsWith("$19\r\n" + Long.MAX_VALUE + "\r\n$16\r\nffffffffffffffff\r\n");
  }

  @Test
  void set_negativeOwner_isSixteenHexDigits() {
    ByteBuffer out = ByteBuffer.allocate(RespCommands.capacityFor("k"));

    RespCommands.set(out, "k", -1L, 1);

    assertThat(text(out)).contains("$16\r\nffffffffffffffff\r\n").endsWith("$1\r\n1\r\n");
  }

  @Test
  void del_writesARespArray() {
    ByteBuffer out = ByteBuffer.allocate(RespCommands.capacityFor("a-key-of-ten-chars"));

    RespCommands.del(out, "a-key-of-ten-chars");

    assertThat(text(out)).isEqualTo("*2\r\n$3\r\nDEL\r\n$18\r\na-key-of-ten-chars\r\n");
  }

  @Test
  void del_nonAsciiKey_countsItsUtf8Bytes() {
    String key = "schlüssel€";
    ByteBuffer out = ByteBuffer.allocate(RespCommands.capacityFor(key));

    RespCommands.del(out, key);

    assertThat(text(out)).isEqualTo("*2\r\n$3\r\nDEL\r\n$13\r\n" + key + "\r\n");
  }

  @Test
  void set_reusedBuffer_startsAfresh() {
    ByteBuffer out = ByteBuffer.allocateDirect(RespCommands.capacityFor("a-longer-key"));
    RespCommands.set(out, "a-longer-key", 1, 10_000);

    RespCommands.del(out, "k");

    assertThat(text(out)).isEqualTo("*2\r\n$3\r\nDEL\r\n$1\r\nk\r\n");
  }

  private static String text(ByteBuffer buffer) {
    byte[] bytes = new byte[buffer.remaining()];
    buffer.duplicate().get(bytes);
    return new String(bytes, StandardCharsets.UTF_8);
  }
}
