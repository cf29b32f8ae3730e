package io.fencedlock.redlock.resp;

import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The command each thread encoded last, kept so that the other nodes of a step get the same bytes
 * without encoding them again: the algorithm sends one command to every node of a step, one node
 * after the other from one thread (docs/analysis.md, section 10, "Issue 20, eighth part").
 *
 * <p>A command is identified by what it is made from, compared by identity: a kind (a script, a
 * command name) and up to three objects and a number. A step passes the same objects to every node
 * (the same {@link io.fencedlock.redlock.spi.LockRequest}, lock key and owner id), and immutable
 * objects that are the same make the same command; anything else is a miss and is encoded afresh,
 * which costs only the encoding. So a reuse is never wrong, whatever the interleaving.
 *
 * <p>A thread encodes into an array of its own, reused from one miss to the next while the command
 * fits (an array of up to {@value #KEPT_BUFFER} bytes is kept; a larger command gets one of its
 * own). So the bytes of an {@link Encoded} are valid only until the thread's next miss: a caller
 * sends them (the connection copies them under its lock) before it does anything else. Each thread
 * holds its last command, and its array, until its next miss, or until the thread ends once the
 * driver is gone (a {@link ThreadLocal}'s entries are cleared lazily). Thread-safe.
 */
final class StepCommands {

  /** The largest array a thread keeps for its next command. */
  static final int KEPT_BUFFER = 4096;

  /**
   * A command, as text (for a script's EVAL fallback) and as the RESP bytes sent, {@code bytes}
   * from 0 to {@code length}.
   */
  record Encoded(String[] command, byte[] bytes, int length) {
    /** {@code command} in an array of its own, not kept. */
    static Encoded of(String[] command) {
      byte[] bytes = RespWriter.encode(command);
      return new Encoded(command, bytes, bytes.length);
    }
  }

  private static final class Last {
    @Nullable Object kind;
    @Nullable Object first;
    @Nullable Object second;
    @Nullable Object third;
    long number;
    @Nullable Encoded encoded;

    /** Empty until the first miss, which sizes it to its command. */
    byte[] buffer = new byte[0];
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
    int length = RespWriter.encode(command, seen.buffer);
    Encoded fresh;
    if (length >= 0) {
      fresh = new Encoded(command, seen.buffer, length);
    } else {
      fresh = Encoded.of(command);
      if (fresh.length() <= KEPT_BUFFER) {
        seen.buffer = fresh.bytes();
      }
    }
    seen.kind = kind;
    seen.first = first;
    seen.second = second;
    seen.third = third;
    seen.number = number;
    seen.encoded = fresh;
    return fresh;
  }
}
