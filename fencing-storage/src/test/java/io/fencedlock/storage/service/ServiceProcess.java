package io.fencedlock.storage.service;

import io.fencedlock.testkit.support.ChildProcess;
import io.fencedlock.testkit.support.Timing;
import java.net.URI;
import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * {@link StorageServiceMain} in a child JVM on this test's classpath, so a test can kill it for
 * real ({@code kill -9}) or stop it with SIGTERM. Output goes to files in the given directory. Not
 * thread-safe: one test drives it.
 */
final class ServiceProcess implements AutoCloseable {
  private static final Pattern LISTENING = Pattern.compile("^listening on (http://\\S+)$");

  private final ChildProcess process;
  private URI url;

  private ServiceProcess(ChildProcess process) {
    this.process = process;
  }

  /** Starts the service with {@code args} and waits for its "listening on" line. */
  static ServiceProcess start(Path logDir, String... args) {
    ServiceProcess service = launch(logDir, args);
    try {
      service.url = URI.create(service.process.awaitLine(LISTENING, Timing.PROCESS).group(1));
      return service;
    } catch (RuntimeException e) {
      service.close();
      throw e;
    }
  }

  /** Starts the service and returns at once, for tests of failing starts. */
  static ServiceProcess launch(Path logDir, String... args) {
    Path workingDir = Path.of("").toAbsolutePath(); // this JVM's, as relative --db paths expect
    return new ServiceProcess(
        ChildProcess.start(logDir, workingDir, ChildProcess.java(StorageServiceMain.class, args)));
  }

  URI url() {
    return url;
  }

  /** SIGKILL, then wait for the process to be gone. */
  void kill9() {
    process.kill9(Timing.PROCESS);
  }

  /** SIGTERM, then wait for the exit code. */
  int terminate() {
    return process.terminate(Timing.PROCESS);
  }

  /** Waits for the process to exit by itself and returns its exit code. */
  int awaitExit() {
    return process.awaitExit(Timing.PROCESS);
  }

  String stdout() {
    return process.stdout();
  }

  String stderr() {
    return process.stderr();
  }

  @Override
  public void close() {
    process.close();
  }
}
