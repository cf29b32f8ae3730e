package io.fencedlock.cli;

/**
 * The parsed command line of {@link ServeMain}. Immutable.
 *
 * @param help whether {@code --help} was given
 * @param port the storage service's port, 0 for an ephemeral one
 */
record ServeArgs(boolean help, int port) {

  static final String USAGE = Usage.of("serve");

  /**
   * Parses the arguments.
   *
   * @throws IllegalArgumentException for an unknown option, a missing value or a bad port
   */
  static ServeArgs parse(String... args) {
    int port = 0;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "-h", "--help" -> {
          return new ServeArgs(true, port);
        }
        case "--port" -> {
          if (i + 1 >= args.length) {
            throw new IllegalArgumentException("missing value for --port");
          }
          port = parsePort(args[++i]);
        }
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    return new ServeArgs(false, port);
  }

  private static int parsePort(String value) {
    try {
      int port = Integer.parseInt(value);
      if (port >= 0 && port <= 65_535) {
        return port;
      }
    } catch (NumberFormatException e) {
      // Reported below with the same message as an out-of-range port.
    }
    throw new IllegalArgumentException("--port must be 0-65535 but was " + value);
  }
}
