package io.fencedlock.testkit;

/** Argument validation that names the offending parameter. Stateless. */
final class Checks {
  private Checks() {}

  static <T> T notNull(T value, String name) {
    if (value == null) {
      throw new IllegalArgumentException(name + " must not be null");
    }
    return value;
  }

  static String[] commandArgs(String[] args) {
    notNull(args, "args");
    if (args.length == 0) {
      throw new IllegalArgumentException("args must contain at least the command name");
    }
    for (int i = 0; i < args.length; i++) {
      if (args[i] == null) {
        throw new IllegalArgumentException("args[" + i + "] must not be null");
      }
    }
    return args.clone();
  }
}
