package io.fencedlock.redlock.resp;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/** Encodes a command as a RESP2 array of bulk strings, by hand and without a copy for ASCII. */
final class RespWriter {

  private RespWriter() {}

  /** An upper bound of the bytes {@link #encode} writes for {@code command}. */
  static int maxSize(String[] command) {
    int size = 16;
    for (String argument : command) {
      size += 16 + 3 * argument.length(); // a char is at most 3 bytes in UTF-8 (a pair is 4)
    }
    return size;
  }

  /** Writes {@code command} to {@code out}, which has at least {@link #maxSize} bytes free. */
  static void encode(String[] command, ByteBuffer out) {
    out.put((byte) '*');
    number(command.length, out);
    for (String argument : command) {
      out.put((byte) '$');
      if (isAscii(argument)) {
        number(argument.length(), out);
        for (int i = 0; i < argument.length(); i++) {
          out.put((byte) argument.charAt(i));
        }
      } else {
        byte[] bytes = argument.getBytes(StandardCharsets.UTF_8);
        number(bytes.length, out);
        out.put(bytes);
      }
      out.put((byte) '\r').put((byte) '\n');
    }
  }

  private static boolean isAscii(String text) {
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) >= 0x80) {
        return false;
      }
    }
    return true;
  }

  /** A non-negative number in decimal, then CRLF. */
  private static void number(int value, ByteBuffer out) {
    if (value >= 10) {
      int divisor = 1;
      while (value / divisor >= 10) {
        divisor *= 10;
      }
      for (; divisor > 0; divisor /= 10) {
        out.put((byte) ('0' + value / divisor % 10));
      }
    } else {
      out.put((byte) ('0' + value));
    }
    out.put((byte) '\r').put((byte) '\n');
  }
}
