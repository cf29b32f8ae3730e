package io.fencedlock.testkit;

import java.util.List;

/** What a test JVM session has on the Docker engine, found by its label. */
final class DockerObjects {
  private DockerObjects() {}

  static List<String> ofSession(String session) {
    return DockerEngine.objectsLabelled(DockerEngine.SESSION_LABEL, session);
  }
}
