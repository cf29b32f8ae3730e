package io.fencedlock.testkit;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The redis-server executable the testkit runs, and its version.
 *
 * <p>{@link #locate()} looks, in order, at the {@code REDIS_SERVER} environment variable (which
 * must name an executable file), at {@code redis-server} on {@code PATH}, and finally at the Linux
 * x86-64 binary bundled in the {@code com.github.codemonstur:embedded-redis} jar, which it extracts
 * once into {@code <java.io.tmpdir>/fencedlock-redis/}. The choice is logged once at INFO.
 *
 * <p>Thread-safety: instances are immutable; {@link #locate()} is synchronized and resolves at most
 * once per JVM (a failed resolution is retried on the next call).
 */
public final class RedisBinary {
  private static final Logger LOG = LoggerFactory.getLogger(RedisBinary.class);
  private static final Duration VERSION_TIMEOUT = Duration.ofSeconds(10);
  private static final Pattern VERSION = Pattern.compile("\\bv=(\\S+)");

  private static RedisBinary located; // guarded by RedisBinary.class

  private final Path path;
  private final String version;

  private RedisBinary(Path path, String version) {
    this.path = path;
    this.version = version;
  }

  /**
   * Returns the redis-server binary for this JVM, resolving it on first use.
   *
   * @throws IllegalStateException if {@code REDIS_SERVER} is set but not executable, no binary
   *     exists for this platform, or the binary does not run
   * @throws java.io.UncheckedIOException if the bundled binary cannot be extracted
   */
  public static synchronized RedisBinary locate() {
    if (located == null) {
      BinaryResolver.Resolution resolution = BinaryResolver.forThisJvm().resolve();
      located = probe(resolution.path());
      LOG.info(
          "Using redis-server {} at {} (from {})",
          located.version,
          located.path,
          resolution.source());
    }
    return located;
  }

  /**
   * Runs {@code <path> --version} to prove the binary executes and to learn its version.
   *
   * @throws IllegalStateException if it cannot be run or prints no version
   */
  static RedisBinary probe(Path path) {
    Commands.Result result;
    try {
      result = Commands.run(List.of(path.toString(), "--version"), VERSION_TIMEOUT);
    } catch (UncheckedIOException e) {
      throw new IllegalStateException(
          "cannot execute " + path + " (is its file system mounted noexec? set REDIS_SERVER)", e);
    }
    Matcher matcher = VERSION.matcher(result.output());
    if (result.exitCode() != 0 || !matcher.find()) {
      throw new IllegalStateException(
          path
              + " --version exited "
              + result.exitCode()
              + " without a version: "
              + result.output().strip());
    }
    return new RedisBinary(path, matcher.group(1));
  }

  /** The absolute path of the executable. */
  public Path path() {
    return path;
  }

  /** The server version as reported by {@code redis-server --version}, e.g. {@code "6.2.11"}. */
  public String version() {
    return version;
  }

  @Override
  public String toString() {
    return "redis-server " + version + " at " + path;
  }
}
