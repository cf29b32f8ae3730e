package io.fencedlock.bench;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * Encodes floor-raw's commands as RESP2 arrays of bulk strings, straight into a buffer the caller
 * reuses: {@code SET key owner NX PX ttl}, {@code DEL key}, floor-raw-handoff's one step, {@code
 * SET key owner PX ttl} or the smallest script that does it only for the current owner ({@link
 * #HAND_OVER_SCRIPT}), and the two steps of its variant between processes: the smallest
 * compare-and-delete script ({@link #RELEASE_SCRIPT}) and the smallest fenced take ({@link
 * #TAKE_SCRIPT}); and the scripted floors' steps, that compare-and-delete and the smallest fenced
 * acquire ({@link #ACQUIRE_SCRIPT}). An owner is a random 64-bit number in 16 hex digits. Allocates
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
   * The smallest release that checks the owner (compare-and-delete): deletes KEYS[1] if ARGV[1]
   * holds it ({@code :1}), else nothing ({@code :0}).
   */
  static final String RELEASE_SCRIPT =
      "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end"
          + " return 0";

  /** {@link #RELEASE_SCRIPT}'s SHA-1. */
  static final String RELEASE_SHA = sha1Hex(RELEASE_SCRIPT);

  /**
   * The smallest fenced acquire that predicts its token: {@code SET KEYS[1] ARGV[1] NX PX ARGV[2]},
   * and where that took the key, the fence counter KEYS[2] raised to the predicted token ARGV[3],
   * in one step ({@code +OK}); else nothing ({@code $-1}). What a fenced acquire on its
   * one-round-trip path does at least (ours, acquire.lua, also checks the node's memory and keeps a
   * high-water mark). A prediction that is not above the counter is an error reply, the key left
   * taken for the caller's undo: a real client would then read the counter and write a token in a
   * second round, which a floor must not skip unnoticed.
   */
  static final String ACQUIRE_SCRIPT =
      "local taken = redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])"
          + " if not taken then return taken end"
          + " if tonumber(redis.call('GET', KEYS[2]) or '0') >= tonumber(ARGV[3]) then"
          + " return redis.error_reply('token ' .. ARGV[3] .. ' not above the fence counter') end"
          + " redis.call('SET', KEYS[2], ARGV[3]) return taken";

  /** {@link #ACQUIRE_SCRIPT}'s SHA-1. */
  static final String ACQUIRE_SHA = sha1Hex(ACQUIRE_SCRIPT);

  /**
   * The smallest fenced take after another process's release: KEYS[1] deleted first if it still
   * holds the released owner ARGV[4] (that release may not have reached this node yet), then {@link
   * #ACQUIRE_SCRIPT}. What a fenced acquire that predicts its token and carries its predecessor's
   * release does at least (ours also keeps a waiter queue).
   */
  static final String TAKE_SCRIPT =
      "if redis.call('GET', KEYS[1]) == ARGV[4] then redis.call('DEL', KEYS[1]) end "
          + ACQUIRE_SCRIPT;

  /** {@link #TAKE_SCRIPT}'s SHA-1. */
  static final String TAKE_SHA = sha1Hex(TAKE_SCRIPT);

  /** What {@link #TAKE_SCRIPT}'s fence key adds to its lock key. */
  static final String FENCE_SUFFIX = ":fence";

  /**
   * Bytes of the longest command besides its keys: the take EVALSHA's header, SHA-1, the fence
   * key's suffix, two owners, and a TTL and a token of up to 19 digits each.
   */
  private static final int COMMAND_OVERHEAD = 256;

  private RespCommands() {}

  /** A capacity that holds any command of this class on {@code key} but {@link #eval}. */
  static int capacityFor(String key) {
    // The key at most twice (the take's lock and fence keys); UTF-8 takes at most 3 bytes per char.
    return key.length() * 6 + COMMAND_OVERHEAD;
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
    evalsha(out, 4, HAND_OVER_SHA, 1);
    bulk(out, key);
    owner(out, from);
    owner(out, to);
    bulkNumber(out, ttlMillis);
    return out.flip();
  }

  /**
   * Clears {@code out} and writes {@code EVALSHA} of {@link #RELEASE_SCRIPT} into it, flipped for
   * writing: the key deleted if {@code owner} holds it.
   */
  static ByteBuffer compareAndDelete(ByteBuffer out, String key, long owner) {
    evalsha(out, 2, RELEASE_SHA, 1);
    bulk(out, key);
    owner(out, owner);
    return out.flip();
  }

  /**
   * Clears {@code out} and writes {@code EVALSHA} of {@link #ACQUIRE_SCRIPT} into it, flipped for
   * writing: the key taken for {@code owner} if free, and its fence counter raised to {@code
   * token}.
   */
  static ByteBuffer acquireFenced(
      ByteBuffer out, String key, long owner, long ttlMillis, long token) {
    evalsha(out, 5, ACQUIRE_SHA, 2);
    fencedTakeArguments(out, key, owner, ttlMillis, token);
    return out.flip();
  }

  /**
   * Clears {@code out} and writes {@code EVALSHA} of {@link #TAKE_SCRIPT} into it, flipped for
   * writing: the key deleted if {@code predecessor} holds it, then taken for {@code owner} if free,
   * and its fence counter raised to {@code token}.
   */
  static ByteBuffer takeFenced(
      ByteBuffer out, String key, long owner, long ttlMillis, long token, long predecessor) {
    evalsha(out, 6, TAKE_SHA, 2);
    fencedTakeArguments(out, key, owner, ttlMillis, token);
    owner(out, predecessor);
    return out.flip();
  }

  /**
   * The keys and arguments {@link #ACQUIRE_SCRIPT} reads, which {@link #TAKE_SCRIPT} reads first:
   * the lock and fence keys, the owner, the TTL and the predicted token.
   */
  private static void fencedTakeArguments(
      ByteBuffer out, String key, long owner, long ttlMillis, long token) {
    bulk(out, key);
    bulk(out, key, FENCE_SUFFIX);
    owner(out, owner);
    bulkNumber(out, ttlMillis);
    bulkNumber(out, token);
  }

  /**
   * Clears {@code out} and writes the head of {@code EVALSHA sha numKeys} followed by {@code
   * keysAndArgs} more bulk strings (fewer than 7), which the caller writes.
   */
  private static void evalsha(ByteBuffer out, int keysAndArgs, String sha, int numKeys) {
    if (keysAndArgs > 6 || numKeys > keysAndArgs) {
      throw new IllegalArgumentException(keysAndArgs + " keys and arguments, " + numKeys + " keys");
    }
    out.clear();
    out.put((byte) '*').put((byte) ('3' + keysAndArgs)).put(CRLF);
    bulk(out, "EVALSHA");
    bulk(out, sha);
    out.put((byte) '$').put((byte) '1').put(CRLF).put((byte) ('0' + numKeys)).put(CRLF);
  }

  /**
   * {@code EVAL script numKeys args...} in a buffer of its own: run once on each node, it puts the
   * script into the node's script cache for the EVALSHAs above. Not for the hot path.
   */
  static ByteBuffer eval(String script, int numKeys, String... keysAndArgs) {
    int capacity = script.length() * 3 + 64;
    for (String arg : keysAndArgs) {
      capacity += arg.length() * 3 + 16;
    }
    ByteBuffer out = ByteBuffer.allocate(capacity);
    out.put((byte) '*');
    decimal(out, 3 + keysAndArgs.length);
    out.put(CRLF);
    bulk(out, "EVAL");
    bulk(out, script);
    bulk(out, Integer.toString(numKeys));
    for (String arg : keysAndArgs) {
      bulk(out, arg);
    }
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
    bulk(out, text, "");
  }

  /** One bulk string of {@code text} followed by the ASCII {@code suffix}, without joining them. */
  private static void bulk(ByteBuffer out, String text, String suffix) {
    if (!isAscii(text)) {
      byte[] bytes = (text + suffix).getBytes(StandardCharsets.UTF_8);
      out.put((byte) '$');
      decimal(out, bytes.length);
      out.put(CRLF).put(bytes).put(CRLF);
      return;
    }
    out.put((byte) '$');
    decimal(out, text.length() + suffix.length());
    out.put(CRLF);
    ascii(out, text);
    ascii(out, suffix);
    out.put(CRLF);
  }

  private static void ascii(ByteBuffer out, String text) {
    for (int i = 0; i < text.length(); i++) {
      out.put((byte) text.charAt(i));
    }
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
