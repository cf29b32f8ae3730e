package io.fencedlock.testkit;

import java.io.IOException;
import org.testcontainers.DockerClientFactory;

/**
 * The main class of child JVMs that start container nodes and then die without closing them, to
 * show what is left behind. Mode {@code nodes}: starts two nodes with AOF (so there are volumes),
 * pauses one, prints {@code SESSION <label value>}, then blocks until killed.
 */
final class ContainerChildJvm {
  private ContainerChildJvm() {}

  public static void main(String[] args) throws IOException {
    if (!args[0].equals("nodes")) {
      throw new IllegalArgumentException("unknown mode " + args[0]);
    }
    // Deliberately never closed: the shutdown hook or the reaper must clean up after us.
    ContainerNodes redis = ContainerNodes.start(2, Persistence.AOF_ALWAYS);
    redis.node(1).pause(); // a frozen container must go too
    System.out.println("SESSION " + DockerClientFactory.SESSION_ID);
    System.out.flush();
    // Block without sleeping: the parent keeps our stdin open until it kills us.
    int ignored = System.in.read();
    throw new IllegalStateException("stdin closed (" + ignored + ") before the parent killed us");
  }
}
