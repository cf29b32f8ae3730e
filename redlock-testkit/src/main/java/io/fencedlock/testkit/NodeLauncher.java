package io.fencedlock.testkit;

import java.util.ArrayList;
import java.util.List;

/**
 * Brings up a group of nodes fast: every process is spawned before we wait for any of them, so they
 * boot in parallel without a thread pool, and the group costs about one startup time.
 *
 * <p>Also owns the retry for the unavoidable race between probing a free port and redis binding it:
 * a node that finds its port taken is respawned on a fresh one, a bounded number of times.
 *
 * <p>Not thread-safe; confined to the thread that starts the group.
 */
final class NodeLauncher {
  static final int MAX_PORT_ATTEMPTS = 5;

  private final NodeSpec spec;
  private final Persistence persistence;
  private int port;
  private RedisProcess process;

  private NodeLauncher(NodeSpec spec, Persistence persistence) {
    this.spec = spec;
    this.persistence = persistence;
  }

  /**
   * Starts one node per spec and returns them once all answer PING. If any fails, every process of
   * the group is killed and its port released before the failure propagates.
   *
   * @throws RedisStartupException if a node does not come up
   */
  static List<RedisNode> launchAll(List<NodeSpec> specs, List<Persistence> persistence) {
    List<NodeLauncher> launchers = new ArrayList<>();
    try {
      for (int i = 0; i < specs.size(); i++) {
        NodeLauncher launcher = new NodeLauncher(specs.get(i), persistence.get(i));
        launchers.add(launcher);
        launcher.spawn();
      }
      List<RedisNode> nodes = new ArrayList<>();
      for (NodeLauncher launcher : launchers) {
        nodes.add(launcher.awaitNode());
      }
      return nodes;
    } catch (RuntimeException e) {
      for (NodeLauncher launcher : launchers) {
        try {
          launcher.abort();
        } catch (RuntimeException cleanup) {
          e.addSuppressed(cleanup);
        }
      }
      throw e;
    }
  }

  private void spawn() {
    port = spec.ports().reserve();
    process = RedisProcess.spawn(spec, persistence, port);
  }

  private RedisNode awaitNode() {
    for (int attempt = 1; ; attempt++) {
      if (process.awaitReady() == RedisProcess.Readiness.READY) {
        return new RedisNode(spec, persistence, process);
      }
      if (attempt == MAX_PORT_ATTEMPTS) {
        throw process.failure("found its port taken " + attempt + " times in a row", null);
      }
      spec.ports().release(port);
      spawn();
    }
  }

  private void abort() {
    if (process != null) {
      process.kill();
    }
    if (port != 0) {
      spec.ports().release(port);
    }
  }
}
