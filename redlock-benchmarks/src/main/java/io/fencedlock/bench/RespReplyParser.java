package io.fencedlock.bench;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Parses RESP2 replies by hand, for floor-raw. It knows only the replies of its commands ({@link
 * RespCommands}: {@code SET}, {@code DEL} and the hand-over, release and take scripts), which are
 * single lines ({@code +OK}, {@code $-1}, {@code :n}, {@code -ERR ...} or {@code -NOSCRIPT ...});
 * anything else is a {@link RespProtocolException}, since the replies would no longer line up with
 * the commands. Allocates nothing except an error's message. Stateless: the caller keeps an
 * incomplete line in its buffer for the next read.
 */
final class RespReplyParser {
  /** The longest reply line accepted; a longer one cannot be a reply to floor-raw's commands. */
  static final int MAX_LINE = 1024;

  private RespReplyParser() {}

  /**
   * Hands every complete reply between {@code in}'s position and limit to {@code out}, in order,
   * and leaves the position at the start of the first incomplete line (at the limit if there is
   * none).
   *
   * @return how many replies were handed over
   * @throws RespProtocolException on bytes that are not such a reply
   */
  static int parse(ByteBuffer in, ReplyHandler out) {
    int start = in.position();
    int limit = in.limit();
    int replies = 0;
    int cr;
    while ((cr = lineEnd(in, start, limit)) >= 0) {
      reply(in, start, cr, out);
      replies++;
      start = cr + 2;
    }
    if (limit - start > MAX_LINE) {
      throw new RespProtocolException("no end of line within " + MAX_LINE + " bytes");
    }
    in.position(start);
    return replies;
  }

  /**
   * The index of the {@code \r} ending the line that starts at {@code from}, or -1 if incomplete.
   */
  private static int lineEnd(ByteBuffer in, int from, int limit) {
    for (int i = from; i < limit - 1; i++) {
      if (in.get(i) == '\r') {
        if (in.get(i + 1) != '\n') {
          throw new RespProtocolException(
              "\\r not followed by \\n at byte " + (i - from) + " of a line");
        }
        return i;
      }
    }
    return -1;
  }

  private static void reply(ByteBuffer in, int start, int end, ReplyHandler out) {
    if (end == start) {
      throw new RespProtocolException("empty line");
    }
    byte type = in.get(start);
    switch (type) {
      case '+' -> out.onReply(ReplyKind.STATUS, 0, null);
      case '-' -> out.onReply(ReplyKind.ERROR, 0, ascii(in, start + 1, end));
      case ':' -> out.onReply(ReplyKind.INTEGER, integer(in, start + 1, end), null);
      case '$' -> {
        if (integer(in, start + 1, end) != -1) {
          throw new RespProtocolException(
              "a bulk string, which none of floor-raw's commands answers");
        }
        out.onReply(ReplyKind.NIL, 0, null);
      }
      default -> throw new RespProtocolException("unexpected reply type '" + (char) type + "'");
    }
  }

  private static long integer(ByteBuffer in, int from, int end) {
    boolean negative = from < end && in.get(from) == '-';
    int i = negative ? from + 1 : from;
    if (i == end || end - i > 19) {
      throw new RespProtocolException("not an integer: '" + ascii(in, from, end) + "'");
    }
    long value = 0;
    for (; i < end; i++) {
      int digit = in.get(i) - '0';
      if (digit < 0 || digit > 9) {
        throw new RespProtocolException("not an integer: '" + ascii(in, from, end) + "'");
      }
      value = value * 10 + digit;
    }
    return negative ? -value : value;
  }

  private static String ascii(ByteBuffer in, int from, int end) {
    byte[] bytes = new byte[end - from];
    in.get(from, bytes);
    return new String(bytes, StandardCharsets.UTF_8);
  }
}
