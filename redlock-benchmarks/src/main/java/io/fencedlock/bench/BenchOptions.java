package io.fencedlock.bench;

import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;

/**
 * The command line of {@code ./fencedlock bench}.
 *
 * @param quick a one-minute pass instead of the full run
 * @param soakMinutes if present, run only the soak, for this many minutes
 * @param out where results.json, report.html and the plots go
 */
record BenchOptions(boolean quick, OptionalInt soakMinutes, Path out) {

  static final String USAGE = "usage: ./fencedlock bench [--quick] [--soak MINUTES] [--out DIR]";

  /** @throws IllegalArgumentException on an unknown option or a bad value */
  static BenchOptions parse(List<String> args, Path defaultOut) {
    boolean quick = false;
    OptionalInt soak = OptionalInt.empty();
    Path out = defaultOut;
    for (int i = 0; i < args.size(); i++) {
      String arg = args.get(i);
      switch (arg) {
        case "--quick" -> quick = true;
        case "--soak" -> soak = OptionalInt.of(positive(value(args, ++i, arg)));
        case "--out" -> out = Path.of(value(args, ++i, arg));
        default -> throw new IllegalArgumentException("unknown option '" + arg + "'\n" + USAGE);
      }
    }
    return new BenchOptions(quick, soak, out);
  }

  private static String value(List<String> args, int index, String option) {
    if (index >= args.size()) {
      throw new IllegalArgumentException(option + " needs a value\n" + USAGE);
    }
    return args.get(index);
  }

  private static int positive(String text) {
    try {
      int minutes = Integer.parseInt(text);
      if (minutes > 0) {
        return minutes;
      }
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--soak needs a whole number of minutes: " + text, e);
    }
    throw new IllegalArgumentException("--soak needs a positive number of minutes: " + text);
  }
}
