package io.fencedlock.testkit.postgres;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Finds the directory holding {@code initdb}, {@code pg_ctl} and {@code postgres}: {@code $PG_BIN},
 * else the highest {@code /usr/lib/postgresql/<version>/bin}, else the {@code PATH}. Stateless. The
 * {@code fencedlock} launcher installs Debian's {@code postgresql} package when none is found, so
 * that this search succeeds on a fresh machine.
 */
public final class PostgresBinaries {
  /** The failure message when no installation is found: says how to install one. */
  public static final String MISSING =
      "PostgreSQL binaries not found: install postgresql (apt-get install postgresql)"
          + " or set PG_BIN";

  private PostgresBinaries() {}

  /**
   * Locates the binaries on this machine.
   *
   * @throws IllegalStateException with {@link #MISSING} if there are none
   */
  public static Path find() {
    return find(
        Optional.ofNullable(System.getenv("PG_BIN")),
        Path.of("/usr/lib/postgresql"),
        Optional.ofNullable(System.getenv("PATH")).orElse(""));
  }

  /** The search, with its inputs made explicit so a unit test can drive it. */
  static Path find(Optional<String> pgBin, Path debianRoot, String pathVariable) {
    if (pgBin.isPresent() && !pgBin.get().isBlank()) {
      Path dir = Path.of(pgBin.get());
      if (!hasBinaries(dir)) {
        throw new IllegalStateException("PG_BIN=" + dir + " has no initdb and pg_ctl");
      }
      return dir;
    }
    return highestDebianVersion(debianRoot)
        .or(() -> onPath(pathVariable))
        .orElseThrow(() -> new IllegalStateException(MISSING));
  }

  private static Optional<Path> highestDebianVersion(Path root) {
    if (!Files.isDirectory(root)) {
      return Optional.empty();
    }
    try (Stream<Path> versions = Files.list(root)) {
      return versions
          .filter(dir -> dir.getFileName().toString().matches("[0-9]+(\\.[0-9]+)?"))
          .map(dir -> dir.resolve("bin"))
          .filter(PostgresBinaries::hasBinaries)
          .max(Comparator.comparingDouble(bin -> version(bin.getParent())));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + root, e);
    }
  }

  private static double version(Path versionDir) {
    return Double.parseDouble(versionDir.getFileName().toString());
  }

  private static Optional<Path> onPath(String pathVariable) {
    return Stream.of(pathVariable.split(File.pathSeparator))
        .filter(entry -> !entry.isBlank())
        .map(Path::of)
        .filter(PostgresBinaries::hasBinaries)
        .findFirst();
  }

  private static boolean hasBinaries(Path dir) {
    return Files.isExecutable(dir.resolve("initdb")) && Files.isExecutable(dir.resolve("pg_ctl"));
  }
}
