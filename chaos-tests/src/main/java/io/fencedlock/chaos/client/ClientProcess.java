package io.fencedlock.chaos.client;

import io.fencedlock.chaos.history.Fields;
import io.fencedlock.chaos.history.Fn;
import io.fencedlock.chaos.history.OpType;
import io.fencedlock.testkit.ExitReaper;
import io.fencedlock.testkit.Signals;
import io.fencedlock.testkit.support.ChildProcess;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.lang.ProcessBuilder.Redirect;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The harness's handle on one client process ({@link LockClientMain}): starts it, sends it ops and
 * waits for their outcomes, relays what it reports to a {@link Listener}, and pauses, continues or
 * kills it with real signals. An op that gets no answer in time, or whose process dies, ends as
 * INFO: its outcome is unknown, as in Jepsen; after a timeout the process is killed, since its op
 * may still be running. Thread-safe: ops come from one worker, signals from the nemesis.
 */
public final class ClientProcess implements AutoCloseable {
  /** What a client process reports besides op outcomes. Called on the process's reader thread. */
  public interface Listener {
    /** The process reached an armed point and waits for {@link ClientProcess#go()}. */
    void reached(ClientProcess process, Point point);

    /** The process observed something (see {@link Fn#OBSERVE}). */
    void observed(ClientProcess process, Map<String, Object> value);
  }

  private static final Duration SIGNAL_BOUND = Duration.ofSeconds(5);
  private static final List<String> JVM_OPTIONS =
      List.of(
          "-Xmx128m",
          "-XX:+UseSerialGC",
          "-XX:TieredStopAtLevel=1",
          "-Xss512k",
          "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");

  private final int client;
  private final Process process;
  private final Writer in;
  private final Listener listener;
  private final CountDownLatch ready = new CountDownLatch(1);
  private final ConcurrentMap<Long, CompletableFuture<Completion>> pending =
      new ConcurrentHashMap<>();
  private final AtomicLong ids = new AtomicLong();
  private volatile boolean exited;

  private ClientProcess(int client, Process process, Listener listener) {
    this.client = client;
    this.process = process;
    this.listener = listener;
    this.in = new java.io.OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
    Thread reader = new Thread(this::read, "client-" + client + "-reader-" + process.pid());
    reader.setDaemon(true);
    reader.start();
  }

  /**
   * Starts a client process with {@code extraEnv} (e.g. libfaketime's) in its environment, its
   * standard error appended to {@code log}. Returns at once; {@link #awaitReady} waits for it.
   *
   * @throws UncheckedIOException if it cannot be started
   */
  public static ClientProcess start(
      ClientArgs args, Map<String, String> extraEnv, Path log, Listener listener) {
    List<String> command =
        ChildProcess.java(JVM_OPTIONS, LockClientMain.class, args.toArgs().toArray(String[]::new));
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectError(Redirect.appendTo(log.toFile()));
    builder.environment().putAll(extraEnv);
    try {
      Process process = builder.start();
      ExitReaper.track(process);
      return new ClientProcess(args.client(), process, listener);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start client " + args.client(), e);
    }
  }

  /**
   * Waits until the process has connected to its nodes and says it is ready.
   *
   * @throws IllegalStateException if it exits first or is not ready within {@code timeout}
   */
  public void awaitReady(Duration timeout) {
    try {
      if (!ready.await(timeout.toMillis(), TimeUnit.MILLISECONDS) || exited) {
        process.destroyForcibly();
        throw new IllegalStateException(
            "client " + client + " (pid " + process.pid() + ") not ready within " + timeout);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
      throw new IllegalStateException("interrupted while client " + client + " started", e);
    }
  }

  public int client() {
    return client;
  }

  public long pid() {
    return process.pid();
  }

  /** Whether the process runs (stopped or not) and has not closed its output. */
  public boolean isAlive() {
    return !exited && process.isAlive();
  }

  /**
   * Runs one op and returns its outcome: the client's, or INFO if the process dies or does not
   * answer within {@code timeout} (then the process is killed).
   */
  public Completion call(Fn f, Map<String, Object> value, Duration timeout) {
    if (!isAlive()) {
      return info("client process " + process.pid() + " is not running");
    }
    long id = ids.incrementAndGet();
    CompletableFuture<Completion> answer = new CompletableFuture<>();
    pending.put(id, answer);
    try {
      send(Map.of("cmd", "op", "id", id, "f", f.name().toLowerCase(Locale.ROOT), "value", value));
      return answer.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      kill();
      return info("no answer within " + timeout + "; client process killed");
    } catch (ExecutionException e) {
      return info(String.valueOf(e.getCause()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return info("interrupted while waiting for the client");
    } catch (UncheckedIOException e) {
      return info("cannot reach the client process: " + e.getMessage());
    } finally {
      pending.remove(id);
    }
  }

  private static Completion info(String why) {
    return new Completion(OpType.INFO, Map.of(Fields.ERROR, why));
  }

  /** Arms a targeted point: the process stops there and reports it. */
  public void arm(Point point) {
    send(Map.of("cmd", "arm", "point", point.wireName()));
  }

  public void disarm() {
    send(Map.of("cmd", "disarm"));
  }

  /** Lets a process that reported a point go on (once it is continued, if stopped). */
  public void go() {
    send(Map.of("cmd", "go"));
  }

  private synchronized void send(Map<String, ?> message) {
    try {
      in.write(Wire.encode(message));
      in.write('\n');
      in.flush();
    } catch (IOException e) {
      throw new UncheckedIOException("client " + client + " closed its input", e);
    }
  }

  /** SIGSTOP, returning once the process is stopped. */
  public void stop() {
    Signals.send("STOP", List.of(process.pid()));
    Signals.awaitStopped(process.pid(), true, SIGNAL_BOUND);
  }

  /** SIGCONT, returning once the process runs again. No-op if it is gone. */
  public void cont() {
    if (process.isAlive()) {
      Signals.send("CONT", List.of(process.pid()));
      Signals.awaitStopped(process.pid(), false, SIGNAL_BOUND);
    }
  }

  /** SIGKILL, returning once the process is gone. */
  public void kill() {
    process.destroyForcibly();
    try {
      if (!process.waitFor(SIGNAL_BOUND.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new IllegalStateException("client pid " + process.pid() + " survived SIGKILL");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while killing pid " + process.pid(), e);
    }
  }

  private void read() {
    try (BufferedReader out =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = out.readLine()) != null) {
        dispatch(line);
      }
    } catch (IOException | RuntimeException e) {
      System.err.println("client " + client + ": reader stopped: " + e);
    } finally {
      exited = true;
      ready.countDown();
      for (CompletableFuture<Completion> p : new ArrayList<>(pending.values())) {
        p.complete(info("client process " + process.pid() + " exited"));
      }
    }
  }

  private void dispatch(String line) {
    Map<String, Object> message;
    try {
      message = Wire.decode(line);
    } catch (IllegalArgumentException e) {
      System.err.println("client " + client + ": not protocol: " + line);
      return; // stray output (a library printing to stdout) must not end the session
    }
    switch (Wire.string(message, "type")) {
      case "ready" -> ready.countDown();
      case "done" -> {
        CompletableFuture<Completion> p = pending.get(Wire.number(message, "id", -1));
        if (p != null) {
          p.complete(
              new Completion(
                  OpType.valueOf(Wire.string(message, "outcome").toUpperCase(Locale.ROOT)),
                  Wire.object(message, "value")));
        }
      }
      case "at" -> listener.reached(this, Point.fromWire(Wire.string(message, "point")));
      case "observe" -> listener.observed(this, Wire.object(message, "value"));
      default -> System.err.println("client " + client + ": unknown message: " + line);
    }
  }

  /** Kills the process if it still runs. */
  @Override
  public void close() {
    if (process.isAlive()) {
      process.destroyForcibly();
    }
  }

  @Override
  public String toString() {
    return "client " + client + " (pid " + process.pid() + ")";
  }
}
