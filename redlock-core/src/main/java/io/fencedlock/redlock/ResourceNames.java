package io.fencedlock.redlock;

import java.util.List;
import java.util.stream.Collectors;

/**
 * How messages show a resource name: quoted, and cut when long, so that a huge name cannot make
 * every exception and log line about it huge. Pure functions; thread-safe.
 */
final class ResourceNames {
  /** The most characters of a name a message shows. */
  static final int SHOWN = 100;

  private ResourceNames() {}

  /**
   * {@code 'name'}, or for a name longer than {@value #SHOWN} characters its first ones, then
   * {@code …' (N chars)}; a surrogate pair is never split.
   */
  static String quoted(String name) {
    if (name.length() <= SHOWN) {
      return "'" + name + "'";
    }
    int end = Character.isLowSurrogate(name.charAt(SHOWN)) ? SHOWN - 1 : SHOWN;
    return "'" + name.substring(0, end) + "…' (" + name.length() + " chars)";
  }

  /** Each name {@linkplain #quoted(String) quoted}, in a list. */
  static String quoted(List<String> names) {
    return names.stream().map(ResourceNames::quoted).collect(Collectors.joining(", ", "[", "]"));
  }
}
