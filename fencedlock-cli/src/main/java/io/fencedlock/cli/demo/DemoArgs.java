package io.fencedlock.cli.demo;

import io.fencedlock.cli.Usage;
import java.nio.file.Path;

/**
 * The parsed command line of {@link DemoMain}. Immutable.
 *
 * @param help whether {@code --help} was given
 * @param report where to write the HTML report
 */
record DemoArgs(boolean help, Path report) {

  /** Overwritten by each run, so the path to open stays the same. */
  static final Path DEFAULT_REPORT =
      Path.of(System.getProperty("java.io.tmpdir"), "fencedlock-demo", "report.html");

  static final String USAGE = Usage.of("demo");

  /**
   * Parses the arguments.
   *
   * @throws IllegalArgumentException for an unknown option or a missing value
   */
  static DemoArgs parse(String... args) {
    Path report = DEFAULT_REPORT;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "-h", "--help" -> {
          return new DemoArgs(true, report);
        }
        case "--report" -> {
          if (i + 1 >= args.length || args[i + 1].isBlank()) {
            throw new IllegalArgumentException("missing value for --report");
          }
          report = Path.of(args[++i]);
        }
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    return new DemoArgs(false, report);
  }
}
