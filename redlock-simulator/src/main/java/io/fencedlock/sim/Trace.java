package io.fencedlock.sim;

import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What happened in a run, as a 64-bit hash of every event (always) and as readable lines (only when
 * asked, for a replay or a shrunk failure: formatting costs more than the run). Two runs of one
 * seed must give the same hash, bit for bit.
 */
final class Trace {
  private final @Nullable List<String> lines;
  private long hash = 0xcbf29ce484222325L;

  Trace(boolean recording) {
    this.lines = recording ? new ArrayList<>() : null;
  }

  boolean recording() {
    return lines != null;
  }

  /**
   * One event: {@code what} is a constant verb, {@code client} and {@code node} say where (-1 for
   * none), {@code number} is printed unless it is Long.MIN_VALUE, and {@code detail} (an owner id,
   * a reply) is turned into text only when recording; its hash code goes into the hash either way,
   * so both modes hash alike.
   */
  void add(long time, String what, int client, int node, long number, @Nullable Object detail) {
    hash =
        mix(
            mix(mix(mix(mix(hash, time), what.hashCode()), client * 31L + node), number),
            detail == null ? 0 : detail.hashCode());
    if (lines != null) {
      String text =
          detail instanceof String owner && owner.length() == 32
              ? id(owner)
              : String.valueOf(detail);
      lines.add(
          String.format(
              "%11.3f ms  %-4s %-4s %-16s%s%s",
              time / 1e6,
              client >= 0 ? "c" + client : "",
              node >= 0 ? "n" + node : "",
              what,
              number != Long.MIN_VALUE ? " " + number : "",
              detail == null ? "" : " " + text));
    }
  }

  void note(long time, String text) {
    add(time, "note", -1, -1, Long.MIN_VALUE, text);
  }

  long hash() {
    return hash;
  }

  List<String> lines() {
    return lines == null ? List.of() : lines;
  }

  /** A short form of an owner id for the trace: its first 6 hex digits. */
  static String id(@Nullable String owner) {
    return owner == null ? "-" : owner.length() > 6 ? owner.substring(0, 6) : owner;
  }

  private static long mix(long h, long x) {
    h ^= x;
    h *= 0x9e3779b97f4a7c15L;
    return h ^ (h >>> 29);
  }
}
