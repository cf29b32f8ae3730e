package io.fencedlock.testkit;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The shared libraries a binary loads, as {@code ldd} lists them (the dynamic loader included), so
 * that an image can hold exactly the host's copy of each. A static binary has none.
 *
 * <p>Stateless and thread-safe.
 */
final class SharedLibraries {
  private static final Duration LDD_TIMEOUT = Duration.ofSeconds(10);
  private static final Pattern PATH = Pattern.compile("(/\\S+)");

  private SharedLibraries() {}

  /**
   * @throws IllegalStateException if ldd fails for another reason than a static binary
   */
  static List<Path> of(Path binary) {
    Commands.Result result = Commands.run(List.of("ldd", binary.toString()), LDD_TIMEOUT);
    if (result.output().contains("not a dynamic executable")
        || result.output().contains("statically linked")) {
      return List.of();
    }
    if (result.exitCode() != 0) {
      throw new IllegalStateException(
          "ldd " + binary + " exited " + result.exitCode() + ": " + result.output().strip());
    }
    List<Path> libraries = new ArrayList<>();
    for (String line : result.output().split("\n")) {
      // "libssl.so.3 => /lib/x86_64-linux-gnu/libssl.so.3 (0x...)" or "/lib64/ld-linux-x86-64.so.2
      // (0x...)"
      int arrow = line.indexOf("=>");
      Matcher path = PATH.matcher(arrow < 0 ? line : line.substring(arrow + 2));
      if (path.find() && Files.exists(Path.of(path.group(1)))) {
        libraries.add(Path.of(path.group(1)));
      }
    }
    return libraries;
  }
}
