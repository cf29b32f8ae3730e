package io.fencedlock.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a short-lived helper command ({@code kill}, {@code redis-server --version}) with a hard time
 * bound. Output goes to a temp file rather than a pipe so that a command which never closes its
 * stdout cannot block us past the bound. Stateless and thread-safe.
 */
final class Commands {
  /** Exit code and combined stdout/stderr of a finished command. */
  record Result(int exitCode, String output) {}

  private Commands() {}

  /**
   * @throws UncheckedIOException if the command cannot be started
   * @throws IllegalStateException if it does not finish within {@code timeout} or we are
   *     interrupted (the command is killed in both cases)
   */
  static Result run(List<String> command, Duration timeout) {
    Path output = null;
    try {
      output = Files.createTempFile("fencedlock-cmd-", ".out");
      Process process =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(output.toFile())
              .start();
      process.getOutputStream().close(); // EOF on stdin, so nothing waits for input
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
        throw new IllegalStateException(command + " did not finish within " + timeout);
      }
      return new Result(process.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run " + command + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while running " + command, e);
    } finally {
      deleteQuietly(output);
    }
  }

  private static void deleteQuietly(Path file) {
    if (file == null) {
      return;
    }
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      // A leftover few-byte file in java.io.tmpdir must not mask the command's real outcome.
      return;
    }
  }
}
