package io.fencedlock.testkit.support;

import io.fencedlock.testkit.ExitReaper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A command run as a child process, typically a {@link #java(Class, String...) JVM on the test's
 * classpath}, for behaviour that only shows across a process boundary: kill -9, SIGTERM and
 * shutdown hooks, exit codes, what a main prints. Its standard output and error go to files in a
 * directory the caller gives, so a test reads them while the process runs and the process never
 * blocks on a full pipe. {@link #close()} kills it and everything it started.
 *
 * <p>Waits are bounded by the caller's timeout and fail at once when the process exits first. Not
 * thread-safe: one test drives it.
 */
public final class ChildProcess implements AutoCloseable {
  private static final AtomicInteger COUNTER = new AtomicInteger();

  private final Process process;
  private final List<String> command;
  private final Path stdout;
  private final Path stderr;

  private ChildProcess(Process process, List<String> command, Path stdout, Path stderr) {
    this.process = process;
    this.command = List.copyOf(command);
    this.stdout = stdout;
    this.stderr = stderr;
  }

  /**
   * Starts {@code command} in this JVM's working directory, with its output in files under {@code
   * logDir}.
   *
   * @throws UncheckedIOException if it cannot be started
   */
  public static ChildProcess start(Path logDir, List<String> command) {
    return start(logDir, Path.of("").toAbsolutePath(), Map.of(), command);
  }

  /**
   * Starts {@code command} in {@code workDir}, with its output in files under {@code logDir}.
   *
   * @throws UncheckedIOException if it cannot be started
   */
  public static ChildProcess start(Path logDir, Path workDir, List<String> command) {
    return start(logDir, workDir, Map.of(), command);
  }

  /**
   * Starts {@code command} in {@code workDir} with {@code extraEnv} added to this JVM's
   * environment, its output in files under {@code logDir}.
   *
   * @throws UncheckedIOException if it cannot be started
   */
  public static ChildProcess start(
      Path logDir, Path workDir, Map<String, String> extraEnv, List<String> command) {
    int n = COUNTER.incrementAndGet();
    Path out = logDir.resolve("child-" + n + ".out");
    Path err = logDir.resolve("child-" + n + ".err");
    ProcessBuilder builder =
        new ProcessBuilder(withNativeLibrariesUnder(logDir, command))
            .directory(workDir.toFile())
            .redirectOutput(out.toFile())
            .redirectError(err.toFile());
    builder.environment().putAll(extraEnv);
    try {
      Process process = builder.start();
      ExitReaper.track(process);
      return new ChildProcess(process, command, out, err);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + command, e);
    }
  }

  /**
   * A child JVM extracts sqlite-jdbc's native library into a temporary file that it deletes at
   * exit; a child killed with SIGKILL (as the storage tests and the chaos harness do) cannot, and
   * left a copy in /tmp per kill. Under {@code logDir}, which the child's owner deletes, nothing
   * stays behind.
   */
  private static List<String> withNativeLibrariesUnder(Path logDir, List<String> command) {
    if (command.isEmpty() || !command.get(0).equals(javaBinary())) {
      return command;
    }
    List<String> withOption = new ArrayList<>(command);
    withOption.add(1, "-Dorg.sqlite.tmpdir=" + logDir.toAbsolutePath());
    return withOption;
  }

  private static String javaBinary() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  /**
   * A command running {@code mainClass} in a JVM like this one, on this JVM's classpath (its
   * entries made absolute, so that the child may run in another working directory).
   */
  public static List<String> java(Class<?> mainClass, String... args) {
    return java(List.of(), mainClass, args);
  }

  /** {@link #java(Class, String...)} with JVM options (e.g. {@code -Dname=value}) first. */
  public static List<String> java(List<String> jvmOptions, Class<?> mainClass, String... args) {
    List<String> command = new ArrayList<>();
    command.add(javaBinary());
    command.addAll(List.of("-cp", absoluteClassPath()));
    command.addAll(jvmOptions);
    command.add(mainClass.getName());
    command.addAll(List.of(args));
    return command;
  }

  /** This JVM's class path with every entry absolute. */
  public static String absoluteClassPath() {
    String separator = java.io.File.pathSeparator;
    return java.util.Arrays.stream(System.getProperty("java.class.path").split(separator))
        .filter(e -> !e.isEmpty())
        .map(e -> Path.of(e).toAbsolutePath().toString())
        .collect(java.util.stream.Collectors.joining(separator));
  }

  /** The process id. */
  public long pid() {
    return process.pid();
  }

  /** Whether the process is still running. */
  public boolean isAlive() {
    return process.isAlive();
  }

  /**
   * Waits for a line of standard output that matches {@code pattern} (whole line, surrounding
   * blanks stripped) and returns its match.
   *
   * @throws IllegalStateException if the process exits first, or after {@code timeout}
   */
  public Matcher awaitLine(Pattern pattern, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      boolean exited = !process.isAlive(); // read before the output, so no line is missed
      Optional<Matcher> match = line(pattern);
      if (match.isPresent()) {
        return match.get();
      }
      if (exited) {
        throw new IllegalStateException(
            "exited with "
                + process.exitValue()
                + " before printing "
                + pattern
                + ":\n"
                + output());
      }
      if (System.nanoTime() - deadline >= 0) {
        throw new IllegalStateException(
            "no line matching " + pattern + " within " + timeout + ":\n" + output());
      }
      waitForExit(Timing.POLL);
    }
  }

  /**
   * The processes among this process's descendants whose command ends with {@code suffix}, such as
   * {@code "redis-server"}.
   */
  public List<ProcessHandle> descendants(String suffix) {
    return process
        .descendants()
        .filter(p -> p.info().command().map(c -> c.endsWith(suffix)).orElse(false))
        .toList();
  }

  /**
   * Sends SIGKILL, then returns the exit code once the process is gone.
   *
   * @throws IllegalStateException if it is still running after {@code timeout}
   */
  public int kill9(Duration timeout) {
    process.destroyForcibly();
    return awaitExit(timeout);
  }

  /**
   * Sends SIGTERM (shutdown hooks run), then returns the exit code.
   *
   * @throws IllegalStateException if it is still running after {@code timeout}
   */
  public int terminate(Duration timeout) {
    process.destroy();
    return awaitExit(timeout);
  }

  /**
   * Waits for the process to exit by itself and returns its exit code.
   *
   * @throws IllegalStateException if it is still running after {@code timeout}
   */
  public int awaitExit(Duration timeout) {
    if (!waitForExit(timeout)) {
      throw new IllegalStateException("still running after " + timeout + ":\n" + output());
    }
    return process.exitValue();
  }

  /** Everything printed to standard output so far. */
  public String stdout() {
    return read(stdout);
  }

  /** Everything printed to standard error so far. */
  public String stderr() {
    return read(stderr);
  }

  /** The command, then standard output and standard error, for failure messages. */
  public String output() {
    return String.join(" ", command) + "\n--- stdout\n" + stdout() + "--- stderr\n" + stderr();
  }

  /** Kills the process and everything it started, if still running. */
  @Override
  public void close() {
    List<ProcessHandle> descendants = process.descendants().toList();
    process.destroyForcibly();
    descendants.forEach(ProcessHandle::destroyForcibly);
  }

  /** Waits up to {@code timeout} for the exit; returns whether the process has exited. */
  private boolean waitForExit(Duration timeout) {
    try {
      process.onExit().get(timeout.toNanos(), TimeUnit.NANOSECONDS);
      return true;
    } catch (TimeoutException e) {
      return false; // still running: the caller decides whether to wait on
    } catch (ExecutionException e) {
      throw new IllegalStateException("waiting for the child process failed", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for the child process", e);
    }
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
