package io.fencedlock.testkit;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Everything about a node that stays fixed across restarts. Immutable.
 *
 * @param index position in its {@link RedisNodes}
 * @param binary the executable to run
 * @param dataDir the node's private {@code --dir}, which also holds {@code redis.log}
 * @param extraArgs user-supplied redis-server arguments appended to every start
 * @param startTimeout how long a start may take until PING answers
 * @param ports where the node's port came from and goes back to on close
 * @param environment variables added to the server's environment (e.g. libfaketime's)
 */
record NodeSpec(
    int index,
    RedisBinary binary,
    Path dataDir,
    List<String> extraArgs,
    Duration startTimeout,
    PortSource ports,
    Map<String, String> environment) {
  static final String HOST = "127.0.0.1";
  static final String LOG_FILE = "redis.log";

  NodeSpec {
    extraArgs = List.copyOf(extraArgs);
    environment = Map.copyOf(environment);
  }

  Path logFile() {
    return dataDir.resolve(LOG_FILE);
  }

  /** The full redis-server command line for one start of this node. */
  List<String> commandLine(int port, Persistence persistence) {
    List<String> command = new ArrayList<>();
    command.add(binary.path().toString());
    command.addAll(List.of("--bind", HOST, "--port", Integer.toString(port)));
    command.addAll(List.of("--dir", dataDir.toString(), "--logfile", logFile().toString()));
    command.addAll(List.of("--daemonize", "no", "--protected-mode", "no", "--save", ""));
    command.addAll(persistence.redisArgs());
    command.addAll(extraArgs);
    return command;
  }
}
