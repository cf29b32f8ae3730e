package io.fencedlock.storage;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@link StorageServiceMain} in a child JVM on this test's classpath, so a test can kill it for
 * real ({@code kill -9}) or stop it with SIGTERM. Output goes to files in the given directory.
 * Not thread-safe: one test drives it.
 */
final class ServiceProcess implements AutoCloseable {
  private static final Pattern LISTENING = Pattern.compile("^listening on (http://\\S+)$");
  private static final AtomicInteger COUNTER = new AtomicInteger();

  private final Process process;
  private final Path stdout;
  private final Path stderr;
  private URI url;

  private ServiceProcess(Process process, Path stdout, Path stderr) {
    this.process = process;
    this.stdout = stdout;
    this.stderr = stderr;
  }

  /** Starts the service with {@code args} and waits for its "listening on" line. */
  static ServiceProcess start(Path logDir, String... args) {
    ServiceProcess service = launch(logDir, args);
    try {
      await("storage service to print its URL")
          .atMost(Timing.PROCESS)
          .pollInterval(50, TimeUnit.MILLISECONDS)
          .until(() -> service.listeningUrl().isPresent() || !service.process.isAlive());
      service.url =
          service
              .listeningUrl()
              .orElseThrow(() -> new IllegalStateException("service died:\n" + service.stderr()));
      return service;
    } catch (RuntimeException e) {
      service.close();
      throw e;
    }
  }

  /** Starts the service and returns at once, for tests of failing starts. */
  static ServiceProcess launch(Path logDir, String... args) {
    int n = COUNTER.incrementAndGet();
    Path out = logDir.resolve("service-" + n + ".out");
    Path err = logDir.resolve("service-" + n + ".err");
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(List.of("-cp", System.getProperty("java.class.path")));
    command.add(StorageServiceMain.class.getName());
    command.addAll(List.of(args));
    try {
      Process process =
          new ProcessBuilder(command)
              .redirectOutput(out.toFile())
              .redirectError(err.toFile())
              .start();
      return new ServiceProcess(process, out, err);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + command, e);
    }
  }

  URI url() {
    return url;
  }

  /** SIGKILL, then wait for the process to be gone. */
  void kill9() {
    process.destroyForcibly();
    awaitExit();
  }

  /** SIGTERM, then wait for the exit code. */
  int terminate() {
    process.destroy();
    return awaitExit();
  }

  /** Waits for the process to exit by itself and returns its exit code. */
  int awaitExit() {
    try {
      if (!process.waitFor(Timing.PROCESS.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new IllegalStateException("service did not exit within " + Timing.PROCESS);
      }
      return process.exitValue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for the service", e);
    }
  }

  String stdout() {
    return read(stdout);
  }

  String stderr() {
    return read(stderr);
  }

  @Override
  public void close() {
    if (process.isAlive()) {
      kill9();
    }
  }

  private Optional<URI> listeningUrl() {
    for (String line : stdout().split("\n")) {
      Matcher matcher = LISTENING.matcher(line.strip());
      if (matcher.matches()) {
        return Optional.of(URI.create(matcher.group(1)));
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
