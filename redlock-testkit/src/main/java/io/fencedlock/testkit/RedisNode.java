package io.fencedlock.testkit;

import io.fencedlock.testkit.support.TempDirs;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One redis-server process on a fixed loopback port, with the faults Redlock must survive: {@link
 * #kill()} (SIGKILL), {@link #pause()}/{@link #resume()} (SIGSTOP/SIGCONT) and {@link
 * #restart(Persistence)} on the same port and data dir. Obtain nodes from {@link RedisNodes}.
 *
 * <p>Lifecycle: a node starts running; {@link #kill()} or {@link #stop()} leave it restartable;
 * {@link #close()} kills it for good and deletes its data dir. Whether data survives a restart
 * depends on the {@link Persistence} mode: with {@link Persistence#NONE} the data dir is wiped, so
 * the node comes back empty, like a master that lost its memory.
 *
 * <p>Thread-safety: thread-safe. Lifecycle methods are serialized on the node, so a {@link
 * #restart()} racing a {@link #pause()} sees a consistent state. {@link #command} takes no lock and
 * may run concurrently with anything; it simply fails while the server is down or paused.
 */
public final class RedisNode implements Node, AutoCloseable {
  /** Socket timeout of {@link #command(String...)}. */
  public static final Duration DEFAULT_COMMAND_TIMEOUT = Duration.ofSeconds(2);

  private static final Logger LOG = LoggerFactory.getLogger(RedisNode.class);
  private static final Duration SIGNAL_BOUND = Duration.ofSeconds(5);

  private final NodeSpec spec;
  private final int port;
  private RedisProcess process; // guarded by this; the latest start, possibly dead
  private Persistence persistence; // guarded by this
  private boolean paused; // guarded by this
  private boolean closed; // guarded by this

  RedisNode(NodeSpec spec, Persistence persistence, RedisProcess process) {
    this.spec = spec;
    this.port = process.port();
    this.persistence = persistence;
    this.process = process;
    LOG.debug("Started {}", this);
  }

  /** Always {@code "127.0.0.1"}: nodes bind to loopback only. */
  public String host() {
    return NodeSpec.HOST;
  }

  /** The port, fixed for the node's lifetime, also across restarts. */
  public int port() {
    return port;
  }

  /** {@code redis://127.0.0.1:<port>}, as understood by Lettuce and Redisson. */
  public String uri() {
    return "redis://" + NodeSpec.HOST + ":" + port;
  }

  /** The node's position in its {@link RedisNodes}. */
  public int index() {
    return spec.index();
  }

  /** The persistence mode of the current (or, if killed, the last) run. */
  public synchronized Persistence persistence() {
    return persistence;
  }

  /** The node's private data dir ({@code --dir}); it also holds {@code redis.log}. */
  public Path dataDir() {
    return spec.dataDir();
  }

  /** The pid of the current run, or of the last one if the node is not running. */
  public synchronized long pid() {
    return process.pid();
  }

  /** Whether the process is alive, paused or not. */
  public synchronized boolean isRunning() {
    return process.isAlive();
  }

  /** Whether the process is alive and stopped by {@link #pause()}. */
  public synchronized boolean isPaused() {
    return paused && process.isAlive();
  }

  /**
   * Kills the process with SIGKILL (also while paused) and waits until it is gone. No-op if it is
   * not running. The node stays restartable.
   *
   * @throws IllegalStateException if the process does not die within a bound
   */
  public synchronized void kill() {
    process.kill();
    paused = false;
  }

  /**
   * The same as {@link #kill()}: redis gets no chance to flush, which is the point of the fixture.
   * Present for symmetry with {@link #restart()}.
   */
  public void stop() {
    kill();
  }

  /**
   * Freezes the process with SIGSTOP and returns once it is stopped. The kernel keeps accepting TCP
   * connections, but nothing is answered until {@link #resume()}; clients see timeouts, as with a
   * long GC pause. No-op if already paused.
   *
   * @throws IllegalStateException if the node is closed or not running
   */
  public synchronized void pause() {
    requireOpen("pause");
    if (!process.isAlive()) {
      throw new IllegalStateException("cannot pause " + this + ": not running");
    }
    if (paused) {
      return;
    }
    Signals.send("STOP", List.of(process.pid()));
    paused = true;
    Signals.awaitStopped(process.pid(), true, SIGNAL_BOUND);
  }

  /**
   * Continues a paused process with SIGCONT. No-op if not paused.
   *
   * @throws IllegalStateException if the signal cannot be delivered
   */
  public synchronized void resume() {
    if (!paused) {
      return;
    }
    paused = false;
    if (process.isAlive()) {
      Signals.send("CONT", List.of(process.pid()));
      Signals.awaitStopped(process.pid(), false, SIGNAL_BOUND);
    }
  }

  /**
   * Kills the node if running and starts it again on the same port and data dir with its current
   * persistence mode; see {@link #restart(Persistence)}.
   */
  public synchronized void restart() {
    restart(persistence);
  }

  /**
   * Kills the node if running and starts it again on the same port and data dir in the given mode,
   * returning once it answers PING. With {@link Persistence#NONE} the data dir is wiped first
   * (except {@code redis.log}), so the node comes back empty.
   *
   * @throws IllegalArgumentException if {@code persistence} is null
   * @throws IllegalStateException if the node is closed
   * @throws RedisStartupException if the server does not come up, e.g. because another process took
   *     the port meanwhile; the node stays restartable
   */
  public synchronized void restart(Persistence persistence) {
    Checks.notNull(persistence, "persistence");
    requireOpen("restart");
    kill();
    if (persistence == Persistence.NONE) {
      NodeDirs.deleteContentsExcept(spec.dataDir(), NodeSpec.LOG_FILE);
    }
    this.persistence = persistence;
    RedisProcess next = RedisProcess.spawn(spec, persistence, port);
    process = next;
    if (next.awaitReady() == RedisProcess.Readiness.PORT_TAKEN) {
      throw next.failure("cannot restart: another process took its port meanwhile", null);
    }
    LOG.debug("Restarted {}", this);
  }

  /**
   * Sends one command over a fresh connection with {@link #DEFAULT_COMMAND_TIMEOUT}; see {@link
   * #command(Duration, String...)}.
   */
  public Object command(String... args) {
    return command(DEFAULT_COMMAND_TIMEOUT, args);
  }

  /**
   * Sends one command, e.g. {@code command(Duration.ofMillis(200), "GET", "k")}, over a fresh
   * connection and returns the decoded RESP2 reply.
   *
   * @param timeout connect and read timeout
   * @param args command name and arguments
   * @return String (simple or bulk string), Long, {@code List<Object>}, or null for nil
   * @throws IllegalArgumentException if timeout or args are null/empty or not positive
   * @throws RedisReplyException if redis answers with an error
   * @throws java.io.UncheckedIOException if the connection fails or times out (down, paused)
   */
  public Object command(Duration timeout, String... args) {
    Checks.notNull(timeout, "timeout");
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("timeout must be positive but was " + timeout);
    }
    return RespClient.call(NodeSpec.HOST, port, timeout, Checks.commandArgs(args));
  }

  /**
   * Kills the process and deletes the data dir; the node cannot be restarted afterwards.
   * Idempotent.
   *
   * @throws IllegalStateException or {@link java.io.UncheckedIOException} if killing or deleting
   *     fails; the other step is still attempted and its failure added as suppressed
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    RuntimeException failure = null;
    try {
      kill();
    } catch (RuntimeException e) {
      failure = e;
    }
    try {
      TempDirs.deleteRecursively(spec.dataDir());
    } catch (RuntimeException e) {
      failure = Failures.add(failure, e);
    }
    spec.ports().release(port);
    if (failure != null) {
      throw failure;
    }
  }

  @Override
  public synchronized String toString() {
    String state = closed ? "closed" : isPaused() ? "paused" : isRunning() ? "running" : "down";
    return "RedisNode["
        + spec.index()
        + " "
        + uri()
        + " pid "
        + process.pid()
        + " "
        + state
        + " "
        + persistence
        + "]";
  }

  private void requireOpen(String operation) {
    if (closed) {
      throw new IllegalStateException("cannot " + operation + " " + this);
    }
  }
}
