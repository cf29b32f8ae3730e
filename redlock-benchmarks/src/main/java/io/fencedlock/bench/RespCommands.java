package io.fencedlock.bench;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Encodes floor-raw's two commands as RESP2 arrays of bulk strings, straight into a buffer the
 * caller reuses: {@code SET key owner NX PX ttl} and {@code DEL key}. The owner is a random 64-bit
 * number in 16 hex digits. Allocates nothing for ASCII keys.
 */
final class RespCommands {
  /** Bytes of a SET command besides its key (header, owner, options, a 19-digit TTL). */
  private static final int SET_OVERHEAD = 96;

  private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] CRLF = {'\r', '\n'};

  private RespCommands() {}

  /** A capacity that holds {@code set} or {@code del} of {@code key}. */
  static int capacityFor(String key) {
    return key.length() * 3 + SET_OVERHEAD; // UTF-8 takes at most 3 bytes per char
  }

  /**
   * Clears {@code out} and writes {@code SET key owner NX PX ttlMillis} into it, flipped for
   * writing.
   */
  static ByteBuffer set(ByteBuffer out, String key, long owner, long ttlMillis) {
    out.clear();
    out.put((byte) '*').put((byte) '6').put(CRLF);
    bulk(out, "SET");
    bulk(out, key);
    out.put((byte) '$').put((byte) '1').put((byte) '6').put(CRLF);
    for (int shift = 60; shift >= 0; shift -= 4) {
      out.put(HEX[(int) (owner >>> shift) & 0xf]);
    }
    out.put(CRLF);
    bulk(out, "NX");
    bulk(out, "PX");
    bulkNumber(out, ttlMillis);
    return out.flip();
  }

  /** Clears {@code out} and writes {@code DEL key} into it, flipped for writing. */
  static ByteBuffer del(ByteBuffer out, String key) {
    out.clear();
    out.put((byte) '*').put((byte) '2').put(CRLF);
    bulk(out, "DEL");
    bulk(out, key);
    return out.flip();
  }

  private static void bulk(ByteBuffer out, String text) {
    if (!isAscii(text)) {
      byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
      out.put((byte) '$');
      decimal(out, bytes.length);
      out.put(CRLF).put(bytes).put(CRLF);
      return;
    }
    out.put((byte) '$');
    decimal(out, text.length());
    out.put(CRLF);
    for (int i = 0; i < text.length(); i++) {
      out.put((byte) text.charAt(i));
    }
    out.put(CRLF);
  }

  private static void bulkNumber(ByteBuffer out, long value) {
    out.put((byte) '$');
    decimal(out, digits(value));
    out.put(CRLF);
    decimal(out, value);
    out.put(CRLF);
  }

  private static boolean isAscii(String text) {
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) >= 0x80) {
        return false;
      }
    }
    return true;
  }

  /** Writes a non-negative number in decimal. */
  private static void decimal(ByteBuffer out, long value) {
    if (value < 0) {
      throw new IllegalArgumentException("negative: " + value);
    }
    int digits = digits(value);
    int end = out.position() + digits;
    for (int i = end - 1; i >= end - digits; i--) {
      out.put(i, (byte) ('0' + value % 10));
      value /= 10;
    }
    out.position(end);
  }

  private static int digits(long value) {
    int digits = 1;
    while (value >= 10) {
      value /= 10;
      digits++;
    }
    return digits;
  }
}
