package io.fencedlock.testkit;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.command.InspectContainerResponse.ContainerState;
import com.github.dockerjava.api.exception.DockerException;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Bind;
import com.github.dockerjava.api.model.ExposedPort;
import com.github.dockerjava.api.model.Frame;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.PortBinding;
import com.github.dockerjava.api.model.Volume;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * One container running redis-server for a node: create, start, readiness wait, SIGKILL, freezer
 * pause, removal. A node runs a new one of these for every restart (the command line carries the
 * persistence mode), on the same name, volume, published port and network address.
 *
 * <p>Thread-safe: all fields are final; Docker serializes operations on a container.
 */
final class NodeContainer {
  /** Outcome of {@link #start()} that the caller can still act on. */
  enum Start {
    STARTED,
    /** Another process holds the published port; pick another. */
    PORT_TAKEN
  }

  private static final Duration PROBE_TIMEOUT = Duration.ofMillis(200);
  private static final Duration STATE_BOUND = Duration.ofSeconds(10);
  private static final long MAX_BACKOFF_MILLIS = 50;
  private static final int LOG_TAIL_LINES = 40;

  private final DockerClient docker;
  private final ContainerSpec spec;
  private final Persistence persistence;
  private final int port;
  private final String id;

  private NodeContainer(
      DockerClient docker, ContainerSpec spec, Persistence persistence, int port, String id) {
    this.docker = docker;
    this.spec = spec;
    this.persistence = persistence;
    this.port = port;
    this.id = id;
  }

  /** Creates (does not start) the container of one run, publishing {@code port} on loopback. */
  static NodeContainer create(
      DockerClient docker, ContainerSpec spec, Persistence persistence, int port) {
    ExposedPort redis = ExposedPort.tcp(ContainerSpec.CONTAINER_PORT);
    String id =
        docker
            .createContainerCmd(spec.image())
            .withName(spec.name())
            .withCmd(spec.args(persistence))
            .withLabels(DockerEngine.labels())
            .withExposedPorts(redis)
            .withHostConfig(
                HostConfig.newHostConfig()
                    .withPortBindings(
                        new PortBinding(
                            com.github.dockerjava.api.model.Ports.Binding.bindIpAndPort(
                                NodeSpec.HOST, port),
                            redis))
                    .withBinds(new Bind(spec.name(), new Volume(ContainerSpec.DATA_DIR)))
                    .withNetworkMode(spec.network().name()))
            .withIpv4Address(spec.address())
            .exec()
            .getId();
    return new NodeContainer(docker, spec, persistence, port, id);
  }

  /** Starts the container; a taken port removes it and says so, anything else throws. */
  Start start() {
    try {
      docker.startContainerCmd(id).exec();
      return Start.STARTED;
    } catch (DockerException e) {
      String message = String.valueOf(e.getMessage());
      if (message.contains("address already in use")
          || message.contains("port is already allocated")) {
        remove();
        return Start.PORT_TAKEN;
      }
      remove();
      throw new RedisStartupException(
          "container " + spec.name() + " did not start: " + message.strip(), e);
    }
  }

  /**
   * Polls with a short backoff until the server answers PING through the published port.
   *
   * @throws RedisStartupException if the container exits, or does not answer within the start
   *     timeout (it is killed first)
   */
  void awaitReady() {
    long deadline = System.nanoTime() + spec.startTimeout().toNanos();
    long backoffMillis = 1;
    while (true) {
      if (!isRunning()) {
        throw failure(
            "exited with code "
                + state().map(ContainerState::getExitCodeLong).orElse(null)
                + " during startup");
      }
      if (answersPing()) {
        return;
      }
      if (System.nanoTime() - deadline > 0) {
        kill();
        throw failure("did not answer PING within " + spec.startTimeout());
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(backoffMillis));
      backoffMillis = Math.min(backoffMillis * 2, MAX_BACKOFF_MILLIS);
    }
  }

  /** SIGKILL (also while frozen); returns once the container has stopped. No-op if stopped. */
  void kill() {
    if (!isRunning()) {
      return;
    }
    try {
      docker.killContainerCmd(id).exec();
    } catch (DockerException e) {
      if (isRunning()) {
        throw e;
      }
      return; // it stopped between our look and the kill: the goal either way
    }
    awaitState(false, "stopped");
  }

  /** Freezes every process of the container (the cgroup freezer) and returns once frozen. */
  void pause() {
    docker.pauseContainerCmd(id).exec();
  }

  void unpause() {
    docker.unpauseContainerCmd(id).exec();
  }

  /** Whether the container runs, frozen or not; a removed one (a failed start) does not. */
  boolean isRunning() {
    return state().map(state -> Boolean.TRUE.equals(state.getRunning())).orElse(false);
  }

  boolean isPaused() {
    return state()
        .map(
            state ->
                Boolean.TRUE.equals(state.getRunning()) && Boolean.TRUE.equals(state.getPaused()))
        .orElse(false);
  }

  /** Removes the container (killing it if needed); already gone is fine. */
  void remove() {
    try {
      docker.removeContainerCmd(id).withForce(true).exec();
    } catch (NotFoundException e) {
      return; // removed already, which is the goal
    }
  }

  String id() {
    return id;
  }

  int port() {
    return port;
  }

  Persistence persistence() {
    return persistence;
  }

  /** An exception saying why this run is unusable, with its arguments and log tail. */
  RedisStartupException failure(String why) {
    return new RedisStartupException(
        "redis node "
            + spec.index()
            + " (container "
            + spec.name()
            + ", image "
            + spec.image()
            + ", port "
            + port
            + ") "
            + why
            + "\nargs: "
            + spec.args(persistence).stream()
                .map(a -> a.isEmpty() ? "\"\"" : a)
                .collect(java.util.stream.Collectors.joining(" "))
            + "\n--- last "
            + LOG_TAIL_LINES
            + " lines of its log ---\n"
            + logTail());
  }

  private Optional<ContainerState> state() {
    try {
      return Optional.of(docker.inspectContainerCmd(id).exec().getState());
    } catch (NotFoundException e) {
      return Optional.empty(); // removed after a failed start, or by the shutdown sweep
    }
  }

  private void awaitState(boolean running, String what) {
    long deadline = System.nanoTime() + STATE_BOUND.toNanos();
    long backoffMillis = 1;
    while (isRunning() != running) {
      if (System.nanoTime() - deadline > 0) {
        throw new IllegalStateException(spec.name() + " not " + what + " after " + STATE_BOUND);
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(backoffMillis));
      backoffMillis = Math.min(backoffMillis * 2, MAX_BACKOFF_MILLIS);
    }
  }

  private boolean answersPing() {
    try {
      return "PONG".equals(RespClient.call(NodeSpec.HOST, port, PROBE_TIMEOUT, "PING"));
    } catch (UncheckedIOException | RedisReplyException e) {
      return false; // the engine's proxy accepts before redis listens, or AOF still loading
    }
  }

  private String logTail() {
    StringBuilder log = new StringBuilder();
    try {
      docker
          .logContainerCmd(id)
          .withStdOut(true)
          .withStdErr(true)
          .withTail(LOG_TAIL_LINES)
          .exec(
              new ResultCallback.Adapter<Frame>() {
                @Override
                public void onNext(Frame frame) {
                  log.append(
                      new String(frame.getPayload(), java.nio.charset.StandardCharsets.UTF_8));
                }
              })
          .awaitCompletion(STATE_BOUND.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      log.append("(interrupted while reading the log)");
    } catch (RuntimeException e) {
      log.append("(cannot read the log: ").append(e).append(')'); // already reporting a failure
    }
    return log.toString();
  }
}
