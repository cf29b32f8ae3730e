package io.fencedlock.cli.demo;

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

  static final String USAGE =
      "usage: ./fencedlock demo [--report FILE]\n"
          + "  Plays Kleppmann's GC-pause scenario on 5 local Redis nodes and the fenced storage\n"
          + "  service, fenced and unfenced, prints the timelines and writes an HTML report.\n"
          + "  --report FILE  where to write the report (default "
          + DEFAULT_REPORT
          + ")\n"
          + "  --help         show this help\n"
          + "  Exit code 0 if both runs show the expected outcome, 1 if not, 2 for bad options.";

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
