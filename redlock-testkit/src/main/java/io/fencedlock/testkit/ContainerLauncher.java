package io.fencedlock.testkit;

import com.github.dockerjava.api.DockerClient;
import java.util.ArrayList;
import java.util.List;

/**
 * Brings up the containers of a deployment fast: every container is started before we wait for any
 * of them, so they boot in parallel. Owns the retry for a published port that another process took
 * between our probe and the engine's bind, as {@link NodeLauncher} does for processes.
 *
 * <p>Not thread-safe; confined to the thread that starts the deployment.
 */
final class ContainerLauncher {
  private final DockerClient docker;
  private final ContainerSpec spec;
  private final Persistence persistence;
  private NodeContainer container;

  private ContainerLauncher(DockerClient docker, ContainerSpec spec, Persistence persistence) {
    this.docker = docker;
    this.spec = spec;
    this.persistence = persistence;
  }

  /**
   * Starts one node per spec and returns them once all answer PING. If any fails, every container
   * and volume of the group is removed and its port released before the failure propagates.
   *
   * @throws RedisStartupException if a node does not come up
   */
  static List<ContainerNode> launchAll(
      DockerClient docker, List<ContainerSpec> specs, List<Persistence> persistence) {
    List<ContainerLauncher> launchers = new ArrayList<>();
    try {
      for (int i = 0; i < specs.size(); i++) {
        ContainerLauncher launcher =
            new ContainerLauncher(docker, specs.get(i), persistence.get(i));
        launchers.add(launcher);
        NodeVolume.create(docker, launcher.spec.name());
        launcher.startOnFreePort();
      }
      List<ContainerNode> nodes = new ArrayList<>();
      for (ContainerLauncher launcher : launchers) {
        launcher.container.awaitReady();
        nodes.add(new ContainerNode(docker, launcher.spec, launcher.container));
      }
      return nodes;
    } catch (RuntimeException e) {
      for (ContainerLauncher launcher : launchers) {
        try {
          launcher.abort();
        } catch (RuntimeException cleanup) {
          e.addSuppressed(cleanup);
        }
      }
      throw e;
    }
  }

  private void startOnFreePort() {
    for (int attempt = 1; ; attempt++) {
      int port = spec.ports().reserve();
      container = NodeContainer.create(docker, spec, persistence, port);
      if (container.start() == NodeContainer.Start.STARTED) {
        return;
      }
      spec.ports().release(port);
      if (attempt == NodeLauncher.MAX_PORT_ATTEMPTS) {
        throw container.failure("found its port taken " + attempt + " times in a row");
      }
    }
  }

  private void abort() {
    if (container != null) {
      container.remove();
      spec.ports().release(container.port());
    }
    NodeVolume.remove(docker, spec.name());
  }
}
