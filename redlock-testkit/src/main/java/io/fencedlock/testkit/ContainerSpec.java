package io.fencedlock.testkit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Everything about a container node that stays fixed across restarts. Immutable.
 *
 * @param index position in its {@link ContainerNodes}
 * @param image the Redis image ({@link RedisImage})
 * @param name the container's name and its volume's name (one container at a time per node)
 * @param network the deployment's network, on which the node has a fixed address
 * @param extraArgs user-supplied redis-server arguments appended to every start
 * @param startTimeout how long a start may take until PING answers
 * @param ports where the node's published port came from and goes back to on close
 */
record ContainerSpec(
    int index,
    String image,
    String name,
    NodeNetwork network,
    List<String> extraArgs,
    Duration startTimeout,
    PortSource ports) {
  /** The port inside the container; clients use the published host port or the fixed address. */
  static final int CONTAINER_PORT = 6379;

  static final String DATA_DIR = "/data";

  ContainerSpec {
    extraArgs = List.copyOf(extraArgs);
  }

  String address() {
    return network.addressOf(index);
  }

  /** The redis-server arguments (after the image's entrypoint) for one start. */
  List<String> args(Persistence persistence) {
    List<String> args = new ArrayList<>();
    args.addAll(List.of("--bind", "0.0.0.0", "--port", Integer.toString(CONTAINER_PORT)));
    // The log goes to stdout, where `docker logs` and our startup failures find it.
    args.addAll(List.of("--dir", DATA_DIR, "--logfile", ""));
    args.addAll(List.of("--daemonize", "no", "--protected-mode", "no", "--save", ""));
    args.addAll(persistence.redisArgs());
    args.addAll(extraArgs);
    return args;
  }
}
