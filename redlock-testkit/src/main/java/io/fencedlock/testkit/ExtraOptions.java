package io.fencedlock.testkit;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** Validation and rendering of user-supplied redis-server options. Stateless, thread-safe. */
final class ExtraOptions {
  /** Options the fixture sets itself; overriding them would break its promises. */
  private static final Set<String> MANAGED =
      Set.of(
          "bind",
          "port",
          "dir",
          "logfile",
          "daemonize",
          "protected-mode",
          "save",
          "appendonly",
          "appendfsync",
          "include");

  private ExtraOptions() {}

  /**
   * @throws IllegalArgumentException if name or value is null, or the name is blank, dashed or
   *     managed by the fixture
   */
  static void validate(String name, String value) {
    Checks.notNull(name, "name");
    Checks.notNull(value, "value");
    if (name.isBlank() || name.startsWith("-")) {
      throw new IllegalArgumentException(
          "name must be an option name like \"maxmemory\" but was \"" + name + "\"");
    }
    if (MANAGED.contains(name.toLowerCase(Locale.ROOT))) {
      throw new IllegalArgumentException("name \"" + name + "\" is managed by the testkit");
    }
  }

  /** {@code --name value} pairs in insertion order. */
  static List<String> toArgs(Map<String, String> options) {
    List<String> args = new ArrayList<>();
    options.forEach(
        (name, value) -> {
          args.add("--" + name);
          args.add(value);
        });
    return args;
  }
}
