package io.fencedlock.testkit;

import com.github.dockerjava.api.DockerClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.utility.ResourceReaper;

/**
 * The Docker engine the container backend talks to, found the way Testcontainers finds it ({@code
 * DOCKER_HOST}, the local socket, {@code ~/.testcontainers.properties}), and the labels that mark
 * everything the test kit creates there.
 *
 * <p>Cleanup does not depend on tests closing their fixtures. Every container, volume and network
 * carries this JVM's session label, which is registered with Testcontainers' resource reaper: Ryuk
 * (or the local stand-in that scripts/docker-setup builds) removes them once this JVM's connection
 * to it is gone, even after SIGKILL; a shutdown hook removes them at once on a normal exit. The
 * owner label (the JVM's pid) lets scripts/docker-setup sweep what a reaper missed.
 *
 * <p>Thread-safe: the client is created once, under the class lock.
 */
public final class DockerEngine {
  /** Every container, volume and network the test kit creates carries this label (value "true"). */
  public static final String LABEL = "io.fencedlock.testkit";

  /** ... and this one, whose value is the pid of the JVM that created it. */
  public static final String OWNER_LABEL = "io.fencedlock.testkit.owner";

  static final String SESSION_LABEL = "io.fencedlock.testkit.session";

  private static final Logger LOG = LoggerFactory.getLogger(DockerEngine.class);
  private static DockerClient client; // guarded by DockerEngine.class
  private static DockerUnavailableException failure; // guarded by DockerEngine.class

  private DockerEngine() {}

  /** Whether a Docker engine answers; asks it once per JVM. */
  public static boolean isAvailable() {
    return unavailableReason().isEmpty();
  }

  /** Why no engine can be used, or empty if one answers; asks it once per JVM. */
  public static Optional<String> unavailableReason() {
    try {
      client();
      return Optional.empty();
    } catch (DockerUnavailableException e) {
      return Optional.of(e.getMessage());
    }
  }

  /**
   * The shared client, connected and with the reaper watching this JVM's session.
   *
   * @throws DockerUnavailableException if no engine answers (remembered: later calls fail fast)
   */
  static synchronized DockerClient client() {
    if (failure != null) {
      throw failure;
    }
    if (client == null) {
      try {
        DockerClient connected = DockerClientFactory.instance().client();
        ResourceReaper.instance().registerLabelsFilterForCleanup(Map.of(SESSION_LABEL, session()));
        Runtime.getRuntime()
            .addShutdownHook(
                new Thread(
                    () -> SessionSweep.removeAll(connected, session()),
                    "fencedlock-docker-reaper"));
        client = connected;
      } catch (NoClassDefFoundError e) {
        failure =
            new DockerUnavailableException(
                "Testcontainers is not on the classpath; add org.testcontainers:testcontainers (an"
                    + " optional dependency of redlock-testkit) to use container nodes",
                e);
        throw failure;
      } catch (RuntimeException e) {
        failure =
            new DockerUnavailableException(
                "no Docker engine answers ("
                    + firstLine(e)
                    + "); on Debian as root, scripts/docker-setup"
                    + " installs and starts one",
                e);
        LOG.debug("Docker unavailable", e);
        throw failure;
      }
    }
    return client;
  }

  /**
   * The labels of every object the test kit creates. Put them on any other Docker object a test
   * makes (a Testcontainers container, say) once this JVM has used the engine through the test kit:
   * then this JVM's shutdown hook, the resource reaper and scripts/docker-setup's sweep remove it
   * like the test kit's own.
   */
  public static Map<String, String> labels() {
    return Map.of(
        LABEL, "true",
        OWNER_LABEL, Long.toString(ProcessHandle.current().pid()),
        SESSION_LABEL, session());
  }

  /**
   * "container NAME", "volume NAME", "network NAME" of every object on the engine labelled {@code
   * label=value}: what a test checks is gone after a run.
   */
  public static List<String> objectsLabelled(String label, String value) {
    DockerClient docker = client();
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

  /** {@link #objectsLabelled} for this JVM's owner label: what this JVM still has on the engine. */
  public static List<String> objectsOwnedByThisJvm() {
    return objectsLabelled(OWNER_LABEL, Long.toString(ProcessHandle.current().pid()));
  }

  private static String session() {
    return DockerClientFactory.SESSION_ID;
  }

  private static String firstLine(Throwable e) {
    String message = String.valueOf(e.getMessage());
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }
}
