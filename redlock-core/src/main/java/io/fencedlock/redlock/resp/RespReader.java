package io.fencedlock.redlock.resp;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Parses RESP2 replies by hand: simple strings and bulk strings as {@code String} (UTF-8; a nil
 * bulk string or array as null), integers as {@code Long}, errors as {@link RespError}, arrays as
 * {@code List<Object>}. Stateless: a reply whose bytes are not all in yet is left unread.
 */
final class RespReader {

  /** Returned while a reply's bytes are not all in; the buffer's position is left unchanged. */
  static final Object INCOMPLETE = new Object();

  /** Replies nested deeper than this are refused (no script here returns more than one level). */
  private static final int MAX_DEPTH = 8;

  private RespReader() {}

  /**
   * The next reply from {@code in} (position to limit), advancing past it; or {@link #INCOMPLETE},
   * with the position unchanged.
   *
   * @throws RespProtocolException if the bytes are not RESP2
   */
  static @Nullable Object read(ByteBuffer in) {
    int start = in.position();
    Object reply = value(in, 0);
    if (reply == INCOMPLETE) {
      in.position(start);
    }
    return reply;
  }

  private static @Nullable Object value(ByteBuffer in, int depth) {
    int lineEnd = lineEnd(in);
    if (lineEnd < 0) {
      return INCOMPLETE;
    }
    byte type = in.get();
    switch (type) {
      case '+':
        return simple(in, lineEnd);
      case '-':
        return new RespError(simple(in, lineEnd));
      case ':':
        return number(in, lineEnd);
      case '$':
        return bulk(in, lineEnd);
      case '*':
        return array(in, lineEnd, depth);
      default:
        throw new RespProtocolException("unexpected reply type byte " + (type & 0xff));
    }
  }

  /** The index of the '\r' ending the line at the position, or -1 if it is not all in. */
  private static int lineEnd(ByteBuffer in) {
    for (int i = in.position(); i + 1 < in.limit(); i++) {
      if (in.get(i) == '\r' && in.get(i + 1) == '\n') {
        return i;
      }
    }
    return -1;
  }

  private static String simple(ByteBuffer in, int lineEnd) {
    int length = lineEnd - in.position();
    String text;
    if (length == 2 && in.get(in.position()) == 'O' && in.get(in.position() + 1) == 'K') {
      text = "OK"; // the most common simple reply, without a copy
    } else {
      byte[] bytes = new byte[length];
      in.get(bytes);
      text = new String(bytes, StandardCharsets.UTF_8);
    }
    in.position(lineEnd + 2);
    return text;
  }

  private static long parseLong(ByteBuffer in, int lineEnd) {
    int i = in.position();
    boolean negative = i < lineEnd && in.get(i) == '-';
    if (negative) {
      i++;
    }
    if (i == lineEnd) {
      throw new RespProtocolException("empty number");
    }
    long value = 0;
    for (; i < lineEnd; i++) {
      byte digit = in.get(i);
      if (digit < '0' || digit > '9') {
        throw new RespProtocolException("not a number: byte " + (digit & 0xff));
      }
      value = value * 10 + (digit - '0');
    }
    in.position(lineEnd + 2);
    return negative ? -value : value;
  }

  private static Long number(ByteBuffer in, int lineEnd) {
    return parseLong(in, lineEnd);
  }

  private static @Nullable Object bulk(ByteBuffer in, int lineEnd) {
    int start = in.position() - 1;
    long length = parseLong(in, lineEnd);
    if (length < 0) {
      return null;
    }
    if (length > Integer.MAX_VALUE - 2) {
      throw new RespProtocolException("bulk string too long: " + length);
    }
    if (in.remaining() < length + 2) {
      in.position(start);
      return INCOMPLETE;
    }
    byte[] bytes = new byte[(int) length];
    in.get(bytes);
    if (in.get() != '\r' || in.get() != '\n') {
      throw new RespProtocolException("bulk string not followed by CRLF");
    }
    return new String(bytes, StandardCharsets.UTF_8);
  }

  private static @Nullable Object array(ByteBuffer in, int lineEnd, int depth) {
    long count = parseLong(in, lineEnd);
    if (count < 0) {
      return null;
    }
    if (depth >= MAX_DEPTH || count > 1 << 20) {
      throw new RespProtocolException("array too deep or too long: " + count);
    }
    List<Object> elements = new ArrayList<>((int) count);
    for (long i = 0; i < count; i++) {
      Object element = value(in, depth + 1);
      if (element == INCOMPLETE) {
        return INCOMPLETE;
      }
      elements.add(element);
    }
    return elements;
  }
}
