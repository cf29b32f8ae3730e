package io.fencedlock.testkit;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.NotFoundException;

/**
 * The named volume that holds a container node's data dir across restarts: created with the test
 * kit's labels (a volume Docker creates implicitly for a bind would have none, and the reaper would
 * not find it). Stateless and thread-safe.
 */
final class NodeVolume {
  private NodeVolume() {}

  static void create(DockerClient docker, String name) {
    docker.createVolumeCmd().withName(name).withLabels(DockerEngine.labels()).exec();
  }

  /** Replaces the volume by an empty one: the node's memory loss. No container may use it. */
  static void recreate(DockerClient docker, String name) {
    remove(docker, name);
    create(docker, name);
  }

  static void remove(DockerClient docker, String name) {
    try {
      docker.removeVolumeCmd(name).exec();
    } catch (NotFoundException e) {
      return; // already gone, which is the goal
    }
  }
}
