package io.fencedlock.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/** A running {@link ChildJvm} on this JVM's java and test classpath, with its output lines. */
final class ChildJvmProcess implements AutoCloseable {
  private final Process process;
  private final List<String> lines = new CopyOnWriteArrayList<>();

  private ChildJvmProcess(Process process) {
    this.process = process;
    Thread reader = new Thread(this::collectOutput, "child-jvm-output-" + process.pid());
    reader.setDaemon(true);
    reader.start();
  }

  static ChildJvmProcess start(String mode, Map<String, String> extraEnv) {
    return start(ChildJvm.class, mode, extraEnv);
  }

  static ChildJvmProcess start(Class<?> main, String mode, Map<String, String> extraEnv) {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    ProcessBuilder builder = new ProcessBuilder(java.toString(), "-cp",
        System.getProperty("java.class.path"), main.getName(), mode)
        .redirectErrorStream(true);
    builder.environment().putAll(extraEnv);
    try {
      return new ChildJvmProcess(builder.start());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start child JVM", e);
    }
  }

  /** Waits (bounded) for a line starting with {@code prefix + " "} and returns the rest. */
  String awaitLine(String prefix) {
    await("child JVM to print " + prefix)
        .atMost(Timing.CHILD_JVM)
        .pollInterval(Timing.POLL)
        .failFast("child JVM exited early: " + lines, () -> !process.isAlive() && !has(prefix))
        .untilAsserted(() -> assertThat(lines).anyMatch(line -> line.startsWith(prefix + " ")));
    return lines.stream()
        .filter(line -> line.startsWith(prefix + " "))
        .findFirst()
        .orElseThrow()
        .substring(prefix.length() + 1);
  }

  /** Waits (bounded) for the child to exit and returns its exit code. */
  int awaitExit() {
    try {
      if (!process.waitFor(Timing.CHILD_JVM.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new AssertionError("child JVM still running after " + Timing.CHILD_JVM);
      }
      return process.exitValue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }

  /** SIGTERM, like Ctrl-C or a CI timeout: shutdown hooks run. */
  void terminate() {
    process.destroy();
  }

  /** SIGKILL, like the OOM killer: no shutdown hook runs. */
  void kill() {
    process.destroyForcibly();
  }

  String output() {
    return String.join("\n", lines);
  }

  @Override
  public void close() {
    process.destroyForcibly();
  }

  private boolean has(String prefix) {
    return lines.stream().anyMatch(line -> line.startsWith(prefix + " "));
  }

  private void collectOutput() {
    try (BufferedReader reader = new BufferedReader(
        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = reader.readLine()) != null) {
        lines.add(line);
      }
    } catch (IOException e) {
      lines.add("(reading child output failed: " + e + ")"); // shows up in assertion messages
    }
  }
}
