package io.fencedlock.testkit;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.NotFoundException;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes every container, volume and network of one test JVM's session, in that order (a volume or
 * network in use by a container cannot go first). Runs from the JVM's shutdown hook, so that a test
 * that never closed its fixture leaves nothing behind; the resource reaper covers a JVM that dies
 * without running hooks.
 *
 * <p>Stateless and thread-safe.
 */
final class SessionSweep {
  private static final Logger LOG = LoggerFactory.getLogger(SessionSweep.class);

  private SessionSweep() {}

  static void removeAll(DockerClient docker, String session) {
    List<String> filter = List.of(DockerEngine.SESSION_LABEL + "=" + session);
    try {
      docker
          .listContainersCmd()
          .withShowAll(true)
          .withLabelFilter(filter)
          .exec()
          .forEach(
              c ->
                  quietly(
                      () ->
                          docker
                              .removeContainerCmd(c.getId())
                              .withForce(true)
                              .withRemoveVolumes(true)
                              .exec()));
      docker
          .listVolumesCmd()
          .withFilter("label", filter)
          .exec()
          .getVolumes()
          .forEach(v -> quietly(() -> docker.removeVolumeCmd(v.getName()).exec()));
      docker
          .listNetworksCmd()
          .withFilter("label", filter)
          .exec()
          .forEach(n -> quietly(() -> docker.removeNetworkCmd(n.getId()).exec()));
    } catch (RuntimeException e) {
      // The JVM is exiting; the reaper removes whatever this missed.
      LOG.warn("Could not remove this JVM's containers at exit", e);
    }
  }

  private static void quietly(Runnable removal) {
    try {
      removal.run();
    } catch (NotFoundException e) {
      return; // already gone (closed concurrently), which is the goal
    }
  }
}
