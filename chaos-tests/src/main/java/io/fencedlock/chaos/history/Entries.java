package io.fencedlock.chaos.history;

import java.util.Arrays;
import java.util.List;

/**
 * The registers' value format: each write appends one entry {@code <token>-<owner prefix>} to what
 * it read, separated by {@code ;}. A register that never loses an update therefore ends with every
 * acknowledged write's entry, in the order the writes took effect. Pure functions.
 */
public final class Entries {
  private static final String SEPARATOR = ";";

  private Entries() {}

  /** The storage key of a resource's unfenced canary. */
  public static String canaryKey(String resource) {
    return resource + ":canary";
  }

  /** The entry of a write with this token by this owner. */
  public static String entry(long token, String owner) {
    return token + "-" + owner.substring(0, Math.min(8, owner.length()));
  }

  /** {@code value} with {@code entry} appended. */
  public static String append(String value, String entry) {
    return value.isEmpty() ? entry : value + SEPARATOR + entry;
  }

  /** The entries of a register value, oldest first. */
  public static List<String> parse(String value) {
    return value.isEmpty() ? List.of() : Arrays.asList(value.split(SEPARATOR));
  }

  /** The token of an entry, or -1 if it is malformed. */
  public static long token(String entry) {
    int dash = entry.indexOf('-');
    try {
      return dash <= 0 ? -1 : Long.parseLong(entry.substring(0, dash));
    } catch (NumberFormatException e) {
      return -1; // malformed entries are reported by the checker as unexplained
    }
  }
}
