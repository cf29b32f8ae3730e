package io.fencedlock.bench;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * Encodes floor-raw's commands as RESP2 arrays of bulk strings, straight into a buffer the caller
 * reuses: {@code SET key owner NX PX ttl}, {@code DEL key}, and floor-raw-handoff's one step,
 * {@code SET key owner PX ttl} or the smallest script that does it only for the current owner
 * ({@link #HAND_OVER_SCRIPT}). An owner is a random 64-bit number in 16 hex digits. Allocates
 * nothing for ASCII keys.
 */
final class RespCommands {
  private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] CRLF = {'\r', '\n'};

  /**
   * The smallest handoff step that checks the owner: gives KEYS[1] to ARGV[2] for ARGV[3] ms if
   * ARGV[1] holds it ({@code +OK}), else nothing ({@code $-1}).
   */
  static final String HAND_OVER_SCRIPT =
      "if redis.call('GET', KEYS[1]) == ARGV[1] then"
          + " return redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3]) end return false";

  /** {@link #HAND_OVER_SCRIPT}'s SHA-1, as EVALSHA names it. */
  static final String HAND_OVER_SHA = sha1Hex(HAND_OVER_SCRIPT);

  /**
   * Bytes of the longest command besides its key: the hand-over EVALSHA's header, SHA-1, two owners
   * and a 19-digit TTL.
   */
  private static final int COMMAND_OVERHEAD = 160;

  private RespCommands() {}

  /** A capacity that holds any command of this class on {@code key} but {@link #load}. */
  static int capacityFor(String key) {
    return key.length() * 3 + COMMAND_OVERHEAD; // UTF-8 takes at most 3 bytes per char
  }

  /**
   * Clears {@code out} and writes {@code SET key owner NX PX ttlMillis} into it, flipped for
   * writing.
   */
  static ByteBuffer set(ByteBuffer out, String key, long owner, long ttlMillis) {
    return set(out, key, owner, ttlMillis, true);
  }

  /**
   * Clears {@code out} and writes {@code SET key owner PX ttlMillis} into it, flipped for writing:
   * the key given to {@code owner} whoever holds it (floor-raw-handoff's one step).
   */
  static ByteBuffer transfer(ByteBuffer out, String key, long owner, long ttlMillis) {
    return set(out, key, owner, ttlMillis, false);
  }

  private static ByteBuffer set(
      ByteBuffer out, String key, long owner, long ttlMillis, boolean onlyIfAbsent) {
    out.clear();
    out.put((byte) '*').put((byte) (onlyIfAbsent ? '6' : '5')).put(CRLF);
    bulk(out, "SET");
    bulk(out, key);
    owner(out, owner);
    if (onlyIfAbsent) {
      bulk(out, "NX");
    }
    bulk(out, "PX");
    bulkNumber(out, ttlMillis);
    return out.flip();
  }

  /**
   * Clears {@code out} and writes {@code EVALSHA} of {@link #HAND_OVER_SCRIPT} into it, flipped for
   * writing: the key given to {@code to} if {@code from} holds it.
   */
  static ByteBuffer handOver(ByteBuffer out, String key, long from, long to, long ttlMillis) {
    out.clear();
    out.put((byte) '*').put((byte) '7').put(CRLF);
    bulk(out, "EVALSHA");
    bulk(out, HAND_OVER_SHA);
    bulk(out, "1");
    bulk(out, key);
    owner(out, from);
    owner(out, to);
    bulkNumber(out, ttlMillis);
    return out.flip();
  }

  /**
   * {@code EVAL} of {@link #HAND_OVER_SCRIPT} on a key nobody uses, in a buffer of its own: run
   * once on each node, it puts the script into the node's script cache for {@link #handOver}, and
   * answers {@code $-1}.
   */
  static ByteBuffer load(String unusedKey) {
    ByteBuffer out = ByteBuffer.allocate(HAND_OVER_SCRIPT.length() + capacityFor(unusedKey));
    out.put((byte) '*').put((byte) '7').put(CRLF);
    bulk(out, "EVAL");
    bulk(out, HAND_OVER_SCRIPT);
    bulk(out, "1");
    bulk(out, unusedKey);
    owner(out, 0);
    owner(out, 0);
    bulkNumber(out, 1);
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

  private static void owner(ByteBuffer out, long owner) {
    out.put((byte) '$').put((byte) '1').put((byte) '6').put(CRLF);
    for (int shift = 60; shift >= 0; shift -= 4) {
      out.put(HEX[(int) (owner >>> shift) & 0xf]);
    }
    out.put(CRLF);
  }

  private static String sha1Hex(String text) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8));
      StringBuilder hex = new StringBuilder(digest.length * 2);
      for (byte b : digest) {
        hex.append((char) HEX[(b >> 4) & 0xf]).append((char) HEX[b & 0xf]);
      }
      return hex.toString();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-1", e);
    }
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
