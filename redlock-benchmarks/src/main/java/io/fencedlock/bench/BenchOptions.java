package io.fencedlock.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;

/**
 * The command line of {@code ./fencedlock bench}.
 *
 * @param quick a one-minute pass instead of the full run
 * @param soakMinutes if present, run only the soak, for this many minutes
 * @param out where results.json, report.html and the plots go
 * @param storage run only the storage service's front ends (storage.md, storage.json)
 * @param help print the usage and run nothing
 */
record BenchOptions(
    boolean quick, OptionalInt soakMinutes, Path out, boolean storage, boolean help) {

  /** From src/main/resources/fencedlock-usage/bench.txt, which the launcher prints too. */
  static final String USAGE = usageText();

  /**
   * @throws IllegalArgumentException on an unknown option or a bad value
   */
  static BenchOptions parse(List<String> args, Path defaultOut) {
    boolean quick = false;
    OptionalInt soak = OptionalInt.empty();
    Path out = defaultOut;
    boolean storage = false;
    for (int i = 0; i < args.size(); i++) {
      String arg = args.get(i);
      switch (arg) {
        case "--quick" -> quick = true;
        case "--soak" -> soak = OptionalInt.of(positive(value(args, ++i, arg)));
        case "--out" -> out = Path.of(value(args, ++i, arg));
        case "--storage" -> storage = true;
        case "--help", "-h" -> {
          return new BenchOptions(quick, soak, out, storage, true);
        }
        default -> throw new IllegalArgumentException("unknown option '" + arg + "'\n" + USAGE);
      }
    }
    if (storage && soak.isPresent()) {
      throw new IllegalArgumentException("--storage and --soak are separate runs\n" + USAGE);
    }
    return new BenchOptions(quick, soak, out, storage, false);
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

  private static String usageText() {
    try (InputStream in = BenchOptions.class.getResourceAsStream("/fencedlock-usage/bench.txt")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
