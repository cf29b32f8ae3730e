package io.fencedlock.testkit;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Decides which redis-server executable to use. Environment, OS and cache location are injected so
 * tests can exercise every branch without touching the real environment.
 *
 * <p>Order: {@code REDIS_SERVER} (must be executable), {@code redis-server} on {@code PATH}, the
 * Linux x86-64 binary bundled in the embedded-redis jar.
 *
 * <p>Immutable and thread-safe; {@link #resolve()} may extract a file, safely across JVMs.
 */
final class BinaryResolver {
  static final String ENV_VAR = "REDIS_SERVER";
  static final String EXECUTABLE_NAME = "redis-server";
  static final String BUNDLED_RESOURCE = "redis-server-6.2.6-v5-linux-amd64";

  /** Where the binary came from, for the one log line that says which binary runs. */
  record Resolution(Path path, String source) {}

  private final Map<String, String> env;
  private final String osName;
  private final String osArch;
  private final Path cacheRoot;

  BinaryResolver(Map<String, String> env, String osName, String osArch, Path cacheRoot) {
    this.env = Map.copyOf(env);
    this.osName = osName;
    this.osArch = osArch;
    this.cacheRoot = cacheRoot;
  }

  /** A resolver for this JVM: real environment, os.name/os.arch, java.io.tmpdir cache. */
  static BinaryResolver forThisJvm() {
    return new BinaryResolver(
        System.getenv(),
        System.getProperty("os.name"),
        System.getProperty("os.arch"),
        Path.of(System.getProperty("java.io.tmpdir"), "fencedlock-redis"));
  }

  /**
   * @throws IllegalStateException if REDIS_SERVER is set but not executable, or no binary exists
   *     for this platform
   */
  Resolution resolve() {
    String explicit = env.get(ENV_VAR);
    if (explicit != null && !explicit.isBlank()) {
      Path path = Path.of(explicit);
      if (!Files.isRegularFile(path) || !Files.isExecutable(path)) {
        throw new IllegalStateException(
            ENV_VAR
                + "="
                + explicit
                + " is not an executable file; point it at a redis-server"
                + " binary or unset it to use the one on PATH or the bundled one");
      }
      return new Resolution(path.toAbsolutePath(), ENV_VAR);
    }
    Optional<Path> onPath = searchPath();
    if (onPath.isPresent()) {
      return new Resolution(onPath.get(), "PATH");
    }
    if (!isLinuxX64()) {
      throw new IllegalStateException(
          "No redis-server found: "
              + ENV_VAR
              + " is unset and none is on PATH, and the bundled"
              + " binary only runs on Linux x86-64, not "
              + osName
              + "/"
              + osArch
              + ". Install redis-server or set "
              + ENV_VAR
              + ".");
    }
    Path extracted = BundledBinary.extract(BUNDLED_RESOURCE, cacheRoot);
    return new Resolution(extracted, "bundled " + BUNDLED_RESOURCE);
  }

  private Optional<Path> searchPath() {
    String searchPath = env.getOrDefault("PATH", "");
    for (String dir : searchPath.split(File.pathSeparator)) {
      if (dir.isEmpty()) {
        continue; // an empty entry would mean the working directory; never run that implicitly
      }
      Path candidate = Path.of(dir, EXECUTABLE_NAME);
      if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
        return Optional.of(candidate.toAbsolutePath());
      }
    }
    return Optional.empty();
  }

  private boolean isLinuxX64() {
    String os = osName.toLowerCase(Locale.ROOT);
    return os.startsWith("linux") && (osArch.equals("amd64") || osArch.equals("x86_64"));
  }
}
