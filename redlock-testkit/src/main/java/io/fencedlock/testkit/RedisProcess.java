package io.fencedlock.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * One spawned redis-server process: start, readiness wait and SIGKILL. A node runs a new one of
 * these for every restart.
 *
 * <p>Thread-safe: all fields are final and {@link Process} is thread-safe.
 */
final class RedisProcess {
  /** Outcome of {@link #awaitReady()} that the caller can still act on. */
  enum Readiness {
    READY,
    /** Another process bound the port between our probe and redis' bind; pick another. */
    PORT_TAKEN
  }

  // Short on purpose: a foreign listener that took our port accepts but never answers, and
  // a slow answer from our own server only costs another poll.
  private static final Duration PROBE_TIMEOUT = Duration.ofMillis(200);
  private static final Duration KILL_BOUND = Duration.ofSeconds(10);
  private static final long MAX_BACKOFF_MILLIS = 50;
  private static final int LOG_TAIL_LINES = 40;

  private final NodeSpec spec;
  private final int port;
  private final List<String> commandLine;
  private final Process process;
  private final long logOffset;

  private RedisProcess(
      NodeSpec spec, int port, List<String> commandLine, Process process, long logOffset) {
    this.spec = spec;
    this.port = port;
    this.commandLine = commandLine;
    this.process = process;
    this.logOffset = logOffset;
  }

  /**
   * Starts redis-server without waiting for it. stdout/stderr go to redis.log too, because redis
   * reports config errors there before it has opened its own log file.
   *
   * @throws RedisStartupException if the process cannot be spawned
   */
  static RedisProcess spawn(NodeSpec spec, Persistence persistence, int port) {
    List<String> command = spec.commandLine(port, persistence);
    try {
      long logOffset = Files.exists(spec.logFile()) ? Files.size(spec.logFile()) : 0;
      ProcessBuilder builder =
          new ProcessBuilder(command)
              .directory(spec.dataDir().toFile())
              .redirectErrorStream(true)
              .redirectOutput(Redirect.appendTo(spec.logFile().toFile()));
      builder.environment().putAll(spec.environment());
      Process process = builder.start();
      ProcessRegistry.register(process);
      process.getOutputStream().close(); // redis never reads stdin; don't hold a pipe open
      return new RedisProcess(spec, port, command, process, logOffset);
    } catch (IOException e) {
      throw new RedisStartupException("cannot spawn " + display(command), e);
    }
  }

  /**
   * Polls with a short exponential backoff until the server answers PING as itself, i.e. not some
   * other redis that took the port; wakes up at once if the process exits.
   *
   * @throws RedisStartupException if it exits for another reason than a taken port, or does not
   *     answer within the node's start timeout (the process is killed first)
   */
  Readiness awaitReady() {
    long deadline = System.nanoTime() + spec.startTimeout().toNanos();
    long backoffMillis = 1;
    while (true) {
      if (!process.isAlive()) {
        return exited();
      }
      if (answersAsItself()) {
        return Readiness.READY;
      }
      if (System.nanoTime() - deadline > 0) {
        kill();
        throw failure("did not answer PING within " + spec.startTimeout(), null);
      }
      waitForExit(backoffMillis);
      backoffMillis = Math.min(backoffMillis * 2, MAX_BACKOFF_MILLIS);
    }
  }

  /** SIGKILLs the process (no-op if it already exited) and waits until it is reaped. */
  void kill() {
    if (!process.isAlive()) {
      return;
    }
    process.destroyForcibly();
    try {
      if (!process.waitFor(KILL_BOUND.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new IllegalStateException(
            "redis-server pid " + process.pid() + " survived SIGKILL for " + KILL_BOUND);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted waiting for pid " + process.pid(), e);
    }
  }

  boolean isAlive() {
    return process.isAlive();
  }

  long pid() {
    return process.pid();
  }

  int port() {
    return port;
  }

  /** An exception describing why this process is unusable, with command line and log tail. */
  RedisStartupException failure(String why, Throwable cause) {
    String message =
        "redis node "
            + spec.index()
            + " on port "
            + port
            + " "
            + why
            + "\ncommand: "
            + display(commandLine)
            + "\n--- last "
            + LOG_TAIL_LINES
            + " lines of "
            + spec.logFile()
            + " ---\n"
            + logTail();
    return new RedisStartupException(message, cause);
  }

  private Readiness exited() {
    // Only look at what this start wrote: the log also holds earlier starts of the node.
    if (readLog(logOffset).contains("Address already in use")) {
      return Readiness.PORT_TAKEN;
    }
    throw failure("exited with code " + process.exitValue() + " during startup", null);
  }

  private boolean answersAsItself() {
    try {
      if (!"PONG".equals(RespClient.call(NodeSpec.HOST, port, PROBE_TIMEOUT, "PING"))) {
        return false;
      }
      Object info = RespClient.call(NodeSpec.HOST, port, PROBE_TIMEOUT, "INFO", "server");
      return info instanceof String text && text.contains("process_id:" + pid() + "\r\n");
    } catch (UncheckedIOException | RedisReplyException e) {
      return false; // not listening yet, or still loading its AOF: keep polling
    }
  }

  private void waitForExit(long millis) {
    try {
      process.waitFor(millis, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      kill();
      throw failure("start was interrupted", e);
    }
  }

  private String logTail() {
    String[] lines = readLog(0).split("\n");
    int from = Math.max(0, lines.length - LOG_TAIL_LINES);
    return Arrays.stream(lines, from, lines.length).collect(Collectors.joining("\n"));
  }

  /** The log from byte {@code offset} on; malformed bytes are replaced, never fatal. */
  private String readLog(long offset) {
    try {
      byte[] bytes = Files.readAllBytes(spec.logFile());
      int from = (int) Math.min(offset, bytes.length);
      return new String(bytes, from, bytes.length - from, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      return "(no log written)";
    } catch (IOException e) {
      return "(cannot read log: " + e + ")"; // we are already reporting a failure; keep it
    }
  }

  private static String display(List<String> command) {
    return command.stream()
        .map(arg -> arg.isEmpty() ? "\"\"" : arg)
        .collect(Collectors.joining(" "));
  }
}
