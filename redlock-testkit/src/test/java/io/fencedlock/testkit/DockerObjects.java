package io.fencedlock.testkit;

import com.github.dockerjava.api.DockerClient;
import java.util.ArrayList;
import java.util.List;

/** What a test JVM session has on the Docker engine, found by its label. */
final class DockerObjects {
  private DockerObjects() {}

  /** "container <name>", "volume <name>", "network <name>" of every object with the label. */
  static List<String> labelled(String label, String value) {
    DockerClient docker = DockerEngine.client();
    List<String> filter = List.of(label + "=" + value);
    List<String> objects = new ArrayList<>();
    docker
        .listContainersCmd()
        .withShowAll(true)
        .withLabelFilter(filter)
        .exec()
        .forEach(c -> objects.add("container " + String.join(",", c.getNames())));
    docker
        .listVolumesCmd()
        .withFilter("label", filter)
        .exec()
        .getVolumes()
        .forEach(v -> objects.add("volume " + v.getName()));
    docker
        .listNetworksCmd()
        .withFilter("label", filter)
        .exec()
        .forEach(n -> objects.add("network " + n.getName()));
    return objects;
  }

  static List<String> ofSession(String session) {
    return labelled(DockerEngine.SESSION_LABEL, session);
  }
}
