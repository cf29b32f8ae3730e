package io.fencedlock.testkit;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.ContainerNetwork;
import com.github.dockerjava.api.model.Network;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;

/**
 * The bridge network of one container deployment. Node i always has address {@code <subnet>.10+i}
 * on it, also after a restart or a reconnect, so that an address handed to a client stays valid.
 *
 * <p>Docker gives fixed addresses only on networks whose subnet the user chose, and we would rather
 * not choose one that may clash with the host's. So the network is created twice: once to let
 * Docker pick a free subnet, then again with that subnet named explicitly.
 *
 * <p>Thread-safe: immutable after creation; Docker serializes the operations.
 */
final class NodeNetwork {
  private static final int FIRST_HOST = 10;

  private final DockerClient docker;
  private final String name;
  private final String id;
  private final int base;

  private NodeNetwork(DockerClient docker, String name, String id, int base) {
    this.docker = docker;
    this.name = name;
    this.id = id;
    this.base = base;
  }

  static NodeNetwork create(DockerClient docker, String name) {
    String probe =
        docker
            .createNetworkCmd()
            .withName(name)
            .withDriver("bridge")
            .withLabels(DockerEngine.labels())
            .exec()
            .getId();
    String subnet;
    try {
      subnet =
          docker
              .inspectNetworkCmd()
              .withNetworkId(probe)
              .exec()
              .getIpam()
              .getConfig()
              .get(0)
              .getSubnet();
    } finally {
      docker.removeNetworkCmd(probe).exec();
    }
    String id =
        docker
            .createNetworkCmd()
            .withName(name)
            .withDriver("bridge")
            .withLabels(DockerEngine.labels())
            .withIpam(new Network.Ipam().withConfig(new Network.Ipam.Config().withSubnet(subnet)))
            .exec()
            .getId();
    return new NodeNetwork(docker, name, id, networkAddress(subnet));
  }

  String name() {
    return name;
  }

  /** The fixed address of node {@code index}. */
  String addressOf(int index) {
    byte[] bytes = ByteBuffer.allocate(4).putInt(base + FIRST_HOST + index).array();
    try {
      return InetAddress.getByAddress(bytes).getHostAddress();
    } catch (UnknownHostException e) {
      throw new IllegalStateException("4 bytes are always an IPv4 address", e);
    }
  }

  void connect(String containerId, int index) {
    docker
        .connectToNetworkCmd()
        .withNetworkId(id)
        .withContainerId(containerId)
        .withContainerNetwork(
            new ContainerNetwork()
                .withIpamConfig(new ContainerNetwork.Ipam().withIpv4Address(addressOf(index))))
        .exec();
  }

  void disconnect(String containerId) {
    docker
        .disconnectFromNetworkCmd()
        .withNetworkId(id)
        .withContainerId(containerId)
        .withForce(true)
        .exec();
  }

  void remove() {
    docker.removeNetworkCmd(id).exec();
  }

  private static int networkAddress(String cidr) {
    String[] parts = cidr.split("/");
    try {
      int address = ByteBuffer.wrap(InetAddress.getByName(parts[0]).getAddress()).getInt();
      int prefix = Integer.parseInt(parts[1]);
      return prefix == 0 ? 0 : address & (-1 << (32 - prefix));
    } catch (UnknownHostException | RuntimeException e) {
      throw new IllegalStateException(
          "Docker gave the network a subnet we cannot read: " + cidr, e);
    }
  }
}
