package io.fencedlock.storage;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A command run as a child process with its output in files, so a test can read it while it runs,
 * send it SIGTERM or SIGKILL and make sure nothing it started outlives the test. Shared by the
 * tests of the storage service and of the demo launchers. Not thread-safe: one test drives it.
 */
public final class ChildProcess implements AutoCloseable {
  private static final AtomicInteger COUNTER = new AtomicInteger();

  private final Process process;
  private final Path stdout;
  private final Path stderr;

  private ChildProcess(Process process, Path stdout, Path stderr) {
    this.process = process;
    this.stdout = stdout;
    this.stderr = stderr;
  }

  /** Starts {@code command} in {@code workDir}, with its output in files under {@code logDir}. */
  public static ChildProcess start(Path logDir, Path workDir, List<String> command) {
    int n = COUNTER.incrementAndGet();
    Path out = logDir.resolve("child-" + n + ".out");
    Path err = logDir.resolve("child-" + n + ".err");
    try {
      Process process = new ProcessBuilder(command)
          .directory(workDir.toFile())
          .redirectOutput(out.toFile())
          .redirectError(err.toFile())
          .start();
      return new ChildProcess(process, out, err);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + command, e);
    }
  }

  /** A command running {@code mainClass} in a JVM on this test's classpath. */
  public static List<String> java(Class<?> mainClass, String... args) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass.getName()));
    command.addAll(List.of(args));
    return command;
  }

  /** Waits for a line of standard output matching {@code pattern}, failing if the process dies. */
  public Matcher awaitLine(Pattern pattern, Duration timeout) {
    await("a line matching " + pattern)
        .atMost(timeout)
        .pollInterval(50, TimeUnit.MILLISECONDS)
        .until(() -> line(pattern).isPresent() || !process.isAlive());
    return line(pattern).orElseThrow(() -> new IllegalStateException(
        "exited with " + process.exitValue() + " before printing " + pattern + ":\n" + stderr()));
  }

  /** The redis-server processes among this process's descendants. */
  public List<ProcessHandle> redisServers() {
    return process.descendants()
        .filter(p -> p.info().command().map(c -> c.endsWith("redis-server")).orElse(false))
        .toList();
  }

  /** SIGKILL, then the exit code once the process is gone. */
  public int kill9(Duration timeout) {
    process.destroyForcibly();
    return awaitExit(timeout);
  }

  /** SIGTERM, then the exit code. */
  public int terminate(Duration timeout) {
    process.destroy();
    return awaitExit(timeout);
  }

  /** Waits for the process to exit by itself and returns its exit code. */
  public int awaitExit(Duration timeout) {
    try {
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new IllegalStateException("still running after " + timeout + ":\n" + stdout());
      }
      return process.exitValue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for the child process", e);
    }
  }

  public String stdout() {
    return read(stdout);
  }

  public String stderr() {
    return read(stderr);
  }

  /** Kills the process and everything it started, if still running. */
  @Override
  public void close() {
    List<ProcessHandle> descendants = process.descendants().toList();
    process.destroyForcibly();
    descendants.forEach(ProcessHandle::destroyForcibly);
  }

  private Optional<Matcher> line(Pattern pattern) {
    for (String line : stdout().split("\n")) {
      Matcher matcher = pattern.matcher(line.strip());
      if (matcher.matches()) {
        return Optional.of(matcher);
      }
    }
    return Optional.empty();
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }
}
