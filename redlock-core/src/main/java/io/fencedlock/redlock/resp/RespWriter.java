package io.fencedlock.redlock.resp;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** Encodes a command as a RESP2 array of bulk strings, by hand, into a heap array. */
final class RespWriter {

  private RespWriter() {}

  /** An upper bound of the bytes {@link #encode} writes for {@code command}. */
  static int maxSize(String[] command) {
    long size = 16;
    for (String argument : command) {
      size += 16 + 3L * argument.length(); // a char is at most 3 bytes in UTF-8 (a pair is 4)
    }
    if (size > Integer.MAX_VALUE - 64) {
      throw new IllegalArgumentException("a command of up to " + size + " bytes is too long");
    }
    return (int) size;
  }

  /**
   * Writes {@code command} at {@code out}'s position, advancing it; {@code out} has an array and at
   * least {@link #maxSize} bytes free.
   */
  static void encode(String[] command, ByteBuffer out) {
    byte[] bytes = out.array();
    int at = out.arrayOffset() + out.position();
    bytes[at++] = '*';
    at = number(command.length, bytes, at);
    for (String argument : command) {
      bytes[at++] = '$';
      if (isAscii(argument)) {
        int length = argument.length();
        at = number(length, bytes, at);
        for (int i = 0; i < length; i++) {
          bytes[at + i] = (byte) argument.charAt(i);
        }
        at += length;
      } else {
        byte[] utf8 = argument.getBytes(StandardCharsets.UTF_8);
        at = number(utf8.length, bytes, at);
        System.arraycopy(utf8, 0, bytes, at, utf8.length);
        at += utf8.length;
      }
      bytes[at++] = '\r';
      bytes[at++] = '\n';
    }
    out.position(at - out.arrayOffset());
  }

  /** {@code command}'s bytes, exactly. */
  static byte[] encode(String[] command) {
    byte[] bytes = new byte[bound(command)]; // exact for ASCII arguments, the usual case
    int length = write(command, bytes);
    return length == bytes.length ? bytes : Arrays.copyOf(bytes, length);
  }

  /**
   * Writes {@code command} at the start of {@code into} if it surely fits, and returns its length;
   * else returns -1 and writes nothing ({@link #maxSize} bytes always fit).
   */
  static int encode(String[] command, byte[] into) {
    return bound(command) > into.length ? -1 : write(command, into);
  }

  /** The exact size of a command of ASCII arguments, else {@link #maxSize}. */
  private static int bound(String[] command) {
    int ascii = asciiSize(command);
    return ascii >= 0 ? ascii : maxSize(command);
  }

  private static int write(String[] command, byte[] into) {
    ByteBuffer out = ByteBuffer.wrap(into);
    encode(command, out);
    return out.position();
  }

  /** The encoded size of a command of ASCII arguments only, or -1 if it has another. */
  private static int asciiSize(String[] command) {
    long size = 1 + digits(command.length) + 2;
    for (String argument : command) {
      if (!isAscii(argument)) {
        return -1;
      }
      size += 1 + digits(argument.length()) + 2 + argument.length() + 2;
    }
    if (size > Integer.MAX_VALUE - 64) {
      throw new IllegalArgumentException("a command of " + size + " bytes is too long");
    }
    return (int) size;
  }

  private static int digits(int value) {
    int digits = 1;
    for (int rest = value; rest >= 10; rest /= 10) {
      digits++;
    }
    return digits;
  }

  private static boolean isAscii(String text) {
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) >= 0x80) {
        return false;
      }
    }
    return true;
  }

  /** Writes a non-negative number in decimal, then CRLF; returns the index after it. */
  private static int number(int value, byte[] bytes, int at) {
    int digits = digits(value);
    for (int i = digits - 1, rest = value; i >= 0; i--, rest /= 10) {
      bytes[at + i] = (byte) ('0' + rest % 10);
    }
    at += digits;
    bytes[at++] = '\r';
    bytes[at++] = '\n';
    return at;
  }
}
