package io.fencedlock.testkit;

import java.io.IOException;
import java.util.stream.Collectors;

/**
 * The main class of child JVMs started by tests, for behaviour that only shows across a process
 * boundary: the shutdown hook and the environment-driven binary resolution.
 *
 * <p>Modes: {@code locate} prints {@code PATH <binary>}; {@code nodes} starts two nodes, pauses
 * one, prints {@code PIDS <pid> <pid>} and {@code ROOT <dir>}, then blocks until killed.
 */
final class ChildJvm {
  private ChildJvm() {}

  public static void main(String[] args) throws IOException {
    switch (args[0]) {
      case "locate" -> System.out.println("PATH " + RedisBinary.locate().path());
      case "nodes" -> startNodesAndBlock();
      default -> throw new IllegalArgumentException("unknown mode " + args[0]);
    }
  }

  private static void startNodesAndBlock() throws IOException {
    // Deliberately never closed: the JVM's shutdown hook must clean up after us.
    RedisNodes redis = RedisNodes.start(2);
    redis.node(1).pause(); // a stopped process must be killed too
    System.out.println(
        "PIDS "
            + redis.nodes().stream()
                .map(node -> Long.toString(node.pid()))
                .collect(Collectors.joining(" ")));
    System.out.println("ROOT " + redis.node(0).dataDir().getParent());
    System.out.flush();
    // Block without sleeping: the parent keeps our stdin open until it kills us.
    int ignored = System.in.read();
    throw new IllegalStateException("stdin closed (" + ignored + ") before the parent killed us");
  }
}
