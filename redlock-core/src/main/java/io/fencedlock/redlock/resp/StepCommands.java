package io.fencedlock.redlock.resp;

import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The command each thread encoded last, kept so that the other nodes of a step get the same bytes
 * without encoding them again: the algorithm sends one command to every node of a step, one node
 * after the other from one thread, and encoding it for each node was a sixth of the callers' own
 * CPU time with 32 clients (docs/analysis.md, section 10).
 *
 * <p>A command is identified by what it is made from, compared by identity: a kind (a script, a
 * command name) and up to three objects and a number. A step passes the same objects to every node
 * (the same {@link io.fencedlock.redlock.spi.LockRequest}, lock key and owner id), and immutable
 * objects that are the same make the same command; anything else is a miss and is encoded afresh,
 * which costs only the encoding. So a reuse is never wrong, whatever the interleaving.
 *
 * <p>Each thread keeps one command, and encodes into a buffer of its own (up to {@value
 * #KEPT_BUFFER} bytes; a larger command gets an array of its own), so the bytes of an {@link
 * Encoded} are valid only until the thread's next miss: a caller sends them (the connection copies
 * them under its lock) before it does anything else. Kept until the driver is unreachable (a {@link
 * ThreadLocal} of the driver). Thread-safe.
 */
final class StepCommands {

  /** The largest buffer a thread keeps. */
  static final int KEPT_BUFFER = 4096;

  /**
   * A command, as text (for a script's EVAL fallback) and as the RESP bytes sent, {@code bytes}
   * from 0 to {@code length}.
   */
  record Encoded(String[] command, byte[] bytes, int length) {}

  private static final class Last {
    @Nullable Object kind;
    @Nullable Object first;
    @Nullable Object second;
    @Nullable Object third;
    long number;
    @Nullable Encoded encoded;
    byte[] buffer = new byte[512];
  }

  private final ThreadLocal<Last> last = ThreadLocal.withInitial(Last::new);

  /**
   * This thread's last command if it was made from the same objects and number, else {@code
   * make}'s, encoded and kept.
   *
   * @throws RuntimeException what {@code make} or the encoding throws (a null argument); nothing is
   *     kept then
   */
  Encoded get(
      Object kind,
      Object first,
      @Nullable Object second,
      @Nullable Object third,
      long number,
      Supplier<String[]> make) {
    Last seen = last.get();
    Encoded encoded = seen.encoded;
    if (encoded != null
        && seen.kind == kind
        && seen.first == first
        && seen.second == second
        && seen.third == third
        && seen.number == number) {
      return encoded;
    }
    String[] command = make.get();
    seen.encoded = null; // so that no half-updated entry can match if something below throws
    byte[] bytes = seen.buffer;
    int length = RespWriter.encode(command, bytes);
    if (length < 0) {
      bytes = new byte[RespWriter.maxSize(command)];
      length = RespWriter.encode(command, bytes);
      if (bytes.length <= KEPT_BUFFER) {
        seen.buffer = bytes;
      }
    }
    Encoded fresh = new Encoded(command, bytes, length);
    seen.kind = kind;
    seen.first = first;
    seen.second = second;
    seen.third = third;
    seen.number = number;
    seen.encoded = fresh;
    return fresh;
  }
}
