package io.fencedlock.testkit;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.NotFoundException;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One redis-server in a container, with the faults of {@link Node} and one more: a network
 * partition through Docker's network ({@link #disconnect()}/{@link #reconnect()}). Obtain nodes
 * from {@link ContainerNodes}.
 *
 * <p>How the faults are made: {@link #kill()} is {@code docker kill} (SIGKILL), {@link #pause()} is
 * {@code docker pause} (the cgroup freezer: unlike SIGSTOP, a frozen task cannot observe or be
 * woken by any signal until thawed), {@link #restart(Persistence)} starts a new container on the
 * node's volume, which {@link Persistence#NONE} replaces with an empty one first.
 *
 * <p>Two ways in: {@link #uri()} is the port published on {@code 127.0.0.1} (fixed for the node's
 * lifetime, works wherever the engine runs), {@link #networkUri()} the node's fixed address on the
 * deployment's network, reachable from this machine only where the engine runs on its kernel
 * (Linux). They differ under a partition: the published port refuses connections and drops the open
 * ones (the engine's port proxy goes away, as with a firewall that rejects), the network address
 * does not answer at all (as with a firewall that drops).
 *
 * <p>Thread-safety: thread-safe; lifecycle methods are serialized on the node. {@link #command}
 * takes no lock.
 */
public final class ContainerNode implements Node {
  private static final Logger LOG = LoggerFactory.getLogger(ContainerNode.class);

  private final DockerClient docker;
  private final ContainerSpec spec;
  private final int port;
  private NodeContainer container; // guarded by this; the latest run, possibly stopped
  private boolean disconnected; // guarded by this
  private boolean closed; // guarded by this

  ContainerNode(DockerClient docker, ContainerSpec spec, NodeContainer container) {
    this.docker = docker;
    this.spec = spec;
    this.port = container.port();
    this.container = container;
    LOG.debug("Started {}", this);
  }

  @Override
  public int index() {
    return spec.index();
  }

  /** Always {@code "127.0.0.1"}: ports are published on loopback only. */
  @Override
  public String host() {
    return NodeSpec.HOST;
  }

  /** The published port, fixed for the node's lifetime, also across restarts. */
  @Override
  public int port() {
    return port;
  }

  /** {@code redis://<address on the deployment network>:6379}; see the class comment. */
  public String networkUri() {
    return "redis://" + networkAddress();
  }

  /**
   * {@code <address on the deployment network>:6379}: where another container on that network (a
   * fault proxy, a client) reaches the node.
   */
  public String networkAddress() {
    return spec.address() + ":" + ContainerSpec.CONTAINER_PORT;
  }

  /** The id of the current (or, if killed, the last) run's container. */
  public synchronized String containerId() {
    return container.id();
  }

  @Override
  public synchronized Persistence persistence() {
    return container.persistence();
  }

  @Override
  public synchronized boolean isRunning() {
    return !closed && container.isRunning();
  }

  @Override
  public synchronized boolean isPaused() {
    return !closed && container.isPaused();
  }

  /** Whether {@link #disconnect()} cut the node off its network. */
  public synchronized boolean isDisconnected() {
    return disconnected;
  }

  @Override
  public synchronized void kill() {
    container.kill();
  }

  /**
   * Freezes the container with the cgroup freezer and returns once it is frozen. No-op if already
   * paused.
   *
   * @throws IllegalStateException if the node is closed or not running
   */
  @Override
  public synchronized void pause() {
    requireOpen("pause");
    if (!container.isRunning()) {
      throw new IllegalStateException("cannot pause " + this + ": not running");
    }
    if (!container.isPaused()) {
      container.pause();
    }
  }

  @Override
  public synchronized void resume() {
    if (!closed && container.isPaused()) {
      container.unpause();
    }
  }

  @Override
  public synchronized void restart(Persistence persistence) {
    Checks.notNull(persistence, "persistence");
    requireOpen("restart");
    container.remove();
    if (persistence == Persistence.NONE) {
      NodeVolume.recreate(docker, spec.name());
    }
    NodeContainer next = NodeContainer.create(docker, spec, persistence, port);
    container = next;
    if (next.start() == NodeContainer.Start.PORT_TAKEN) {
      throw next.failure("cannot restart: another process took its port meanwhile");
    }
    next.awaitReady();
    if (disconnected) {
      spec.network().disconnect(next.id()); // a restart does not heal a partition
    }
    LOG.debug("Restarted {}", this);
  }

  /**
   * Cuts the node off the deployment's network: a partition between the node and every client,
   * while the server keeps running with its data (unlike {@link #kill()}). No-op if already
   * disconnected.
   *
   * @throws IllegalStateException if the node is closed
   */
  public synchronized void disconnect() {
    requireOpen("disconnect");
    if (!disconnected) {
      spec.network().disconnect(container.id());
      disconnected = true;
    }
  }

  /** Heals {@link #disconnect()}: same address, same published port. No-op if connected. */
  public synchronized void reconnect() {
    requireOpen("reconnect");
    if (disconnected) {
      spec.network().connect(container.id(), spec.index());
      disconnected = false;
    }
  }

  @Override
  public Object command(Duration timeout, String... args) {
    Checks.notNull(timeout, "timeout");
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("timeout must be positive but was " + timeout);
    }
    return RespClient.call(NodeSpec.HOST, port, timeout, Checks.commandArgs(args));
  }

  /**
   * Removes the container and its volume and gives the port back; the node cannot be restarted
   * afterwards. Idempotent.
   */
  synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      container.remove();
      NodeVolume.remove(docker, spec.name());
    } catch (NotFoundException e) {
      LOG.debug("{} was already removed", spec.name(), e); // e.g. by the JVM's shutdown sweep
    } finally {
      spec.ports().release(port);
    }
  }

  @Override
  public synchronized String toString() {
    String state = closed ? "closed" : isPaused() ? "paused" : isRunning() ? "running" : "down";
    return "ContainerNode["
        + spec.index()
        + " "
        + uri()
        + " "
        + spec.name()
        + " "
        + state
        + " "
        + container.persistence()
        + (disconnected ? " disconnected" : "")
        + "]";
  }

  private void requireOpen(String operation) {
    if (closed) {
      throw new IllegalStateException("cannot " + operation + " " + this);
    }
  }
}
