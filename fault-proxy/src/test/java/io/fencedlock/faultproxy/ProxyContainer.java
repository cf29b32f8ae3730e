package io.fencedlock.faultproxy;

import com.github.dockerjava.api.model.ContainerNetwork;
import io.fencedlock.testkit.DockerEngine;
import io.fencedlock.testkit.JavaImage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.toxiproxy.ToxiproxyContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * This module's server in a container, run by Testcontainers' {@link ToxiproxyContainer} from the
 * image the test kit builds from the module's own class path ({@link JavaImage}: the JRE image of
 * scripts/docker-setup plus the jar and its two libraries). The API is reached as any user of
 * {@code ToxiproxyContainer} reaches it, through the mapped control port; the proxies' ports
 * through the container's address on Docker's default bridge, so that what a test sees on a proxied
 * connection (a refused connect, a reset) is the server's doing and not that of the engine's port
 * proxy in front of a mapped port.
 *
 * <p>Not thread-safe; one per JVM run, closed from JUnit's root store.
 */
final class ProxyContainer implements AutoCloseable {
  /** The image {@code ToxiproxyContainer} accepts as the API it speaks. */
  static final String TOXIPROXY_IMAGE = "ghcr.io/shopify/toxiproxy";

  private static final Logger log = LoggerFactory.getLogger(ProxyContainer.class);

  private final ToxiproxyContainer container;
  private final ContainerNetwork bridge;

  private ProxyContainer(ToxiproxyContainer container) {
    this.container = container;
    this.bridge =
        container.getContainerInfo().getNetworkSettings().getNetworks().values().iterator().next();
  }

  static ProxyContainer start(long seed) {
    long began = System.nanoTime();
    String image =
        JavaImage.ensure(
            FaultProxyMain.IMAGE_REPOSITORY,
            FaultProxyMain.runtimeClassPath(),
            FaultProxyMain.containerArgs());
    ToxiproxyContainer container =
        new ToxiproxyContainer(
                DockerImageName.parse(image).asCompatibleSubstituteFor(TOXIPROXY_IMAGE))
            .withLabels(DockerEngine.labels())
            .withCommand("--seed", Long.toString(seed));
    container.start();
    ProxyContainer started = new ProxyContainer(container);
    log.info(
        "fault proxy container {} from {} up in {} ms: API {}:{}, proxies on {} (seed {})",
        container.getContainerName(),
        image,
        (System.nanoTime() - began) / 1_000_000,
        started.apiHost(),
        started.apiPort(),
        started.address(),
        seed);
    return started;
  }

  /** Where the mapped control port is published, as Testcontainers sees it. */
  String apiHost() {
    return container.getHost();
  }

  int apiPort() {
    return container.getControlPort();
  }

  /** The container's address on the default bridge, where its proxies listen. */
  String address() {
    return bridge.getIpAddress();
  }

  /** This machine's address on that bridge, where the container reaches servers of the test. */
  String gateway() {
    return bridge.getGateway();
  }

  @Override
  public void close() {
    container.stop();
  }
}
