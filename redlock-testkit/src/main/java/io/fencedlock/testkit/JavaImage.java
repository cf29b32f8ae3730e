package io.fencedlock.testkit;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.ConflictException;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Image;
import io.fencedlock.testkit.support.TempDirs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.utility.TestcontainersConfiguration;

/**
 * The container image of a Java program of this project: {@code FROM} the local JRE image that
 * scripts/docker-setup builds (a jlink'd runtime of this machine's JDK, Debian's OpenJDK here),
 * with the program's class path copied in and {@code java -cp <class path> <args>} as its
 * entrypoint; arguments the container's command adds come after. Nothing is pulled.
 *
 * <p>The tag is {@code <repository>:<first 12 hex digits of a SHA-256>} over the base image, the
 * arguments and the class files themselves (entry names and bytes, not jar timestamps), so a
 * rebuilt but unchanged jar finds its image and changed code gets a new one. Building a new tag
 * removes the repository's other tags that no container uses: one image per program stays cached.
 *
 * <p>The base image's name comes from the system property {@value #JRE_IMAGE_PROPERTY}, else from
 * Testcontainers' configuration: the same key in {@code ~/.testcontainers.properties}, where
 * scripts/docker-setup writes it (or the environment variable {@code
 * TESTCONTAINERS_FENCEDLOCK_JRE_IMAGE}).
 *
 * <p>Thread-safe: building is serialized per JVM; concurrent JVMs may both build the same tag,
 * which Docker resolves by keeping the last.
 */
public final class JavaImage {
  /** The key that names the JRE base image. */
  public static final String JRE_IMAGE_PROPERTY = "fencedlock.jre.image";

  static final String APP_DIR = "/app";

  private static final Logger LOG = LoggerFactory.getLogger(JavaImage.class);

  private JavaImage() {}

  /**
   * The image's tag; builds it first if the engine does not have it.
   *
   * @param repository the image repository, such as {@code fencedlock/fault-proxy}
   * @param classPath classes whose code sources (jars or class directories) make up the class path,
   *     in order, duplicates dropped
   * @param javaArgs what follows {@code -cp <class path>}: JVM options, the main class, arguments
   * @throws DockerUnavailableException if no Docker engine answers
   * @throws IllegalStateException if the JRE base image is not named or not built
   */
  public static synchronized String ensure(
      String repository, List<Class<?>> classPath, List<String> javaArgs) {
    Checks.notNull(repository, "repository");
    DockerClient docker = DockerEngine.client();
    String base = baseImage(docker);
    List<Path> entries = codeSources(classPath);
    String tag = repository + ":" + ClassPathDigest.of(base, javaArgs, entries);
    try {
      docker.inspectImageCmd(tag).exec();
      return tag;
    } catch (NotFoundException e) {
      build(docker, base, tag, entries, javaArgs);
      removeOtherTags(docker, repository, tag);
      return tag;
    }
  }

  /** The JRE base image named by {@value #JRE_IMAGE_PROPERTY}, checked to exist. */
  static String baseImage(DockerClient docker) {
    String name = System.getProperty(JRE_IMAGE_PROPERTY);
    if (name == null || name.isBlank()) {
      name =
          TestcontainersConfiguration.getInstance()
              .getEnvVarOrUserProperty(JRE_IMAGE_PROPERTY, null);
    }
    String setup =
        "; scripts/docker-setup builds it and names it in ~/.testcontainers.properties ("
            + JRE_IMAGE_PROPERTY
            + ")";
    if (name == null || name.isBlank()) {
      throw new IllegalStateException("no JRE base image is named" + setup);
    }
    try {
      docker.inspectImageCmd(name.strip()).exec();
      return name.strip();
    } catch (NotFoundException e) {
      throw new IllegalStateException("the JRE base image " + name + " is not built" + setup, e);
    }
  }

  /** Where each class was loaded from, in order, without duplicates. */
  static List<Path> codeSources(List<Class<?>> classes) {
    Set<Path> entries = new LinkedHashSet<>();
    for (Class<?> type : classes) {
      CodeSource source = type.getProtectionDomain().getCodeSource();
      if (source == null || source.getLocation() == null) {
        throw new IllegalArgumentException(type.getName() + " has no code source (a JDK class?)");
      }
      try {
        entries.add(Path.of(source.getLocation().toURI()));
      } catch (URISyntaxException e) {
        throw new IllegalArgumentException("cannot locate the code of " + type.getName(), e);
      }
    }
    return List.copyOf(entries);
  }

  private static void build(
      DockerClient docker, String base, String tag, List<Path> entries, List<String> javaArgs) {
    Path context = TempDirs.create("fencedlock-java-image-");
    try {
      List<String> classPath = new ArrayList<>();
      for (int i = 0; i < entries.size(); i++) {
        Path entry = entries.get(i);
        String name = Files.isDirectory(entry) ? i + "-classes" : i + "-" + entry.getFileName();
        copy(entry, context.resolve("app").resolve(name));
        classPath.add(APP_DIR + "/" + name);
      }
      List<String> entrypoint =
          new ArrayList<>(List.of("/opt/jre/bin/java", "-cp", String.join(":", classPath)));
      entrypoint.addAll(javaArgs);
      Files.writeString(
          context.resolve("Dockerfile"),
          String.join(
              "\n",
              "FROM " + base,
              "COPY app/ " + APP_DIR + "/",
              "LABEL io.fencedlock.image=java",
              "ENTRYPOINT " + jsonArray(entrypoint),
              "CMD []",
              ""));
      docker
          .buildImageCmd(context.toFile())
          .withTags(Set.of(tag))
          .withPull(false)
          .withRemove(true)
          .start()
          .awaitImageId();
      LOG.info("Built image {} from {}", tag, entries);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot prepare the build context of " + tag, e);
    } finally {
      TempDirs.deleteRecursively(context);
    }
  }

  /** Older builds of the same program: removed unless a container (another JVM's) uses one. */
  private static void removeOtherTags(DockerClient docker, String repository, String keep) {
    for (Image image : docker.listImagesCmd().withImageNameFilter(repository).exec()) {
      String[] tags = image.getRepoTags() == null ? new String[0] : image.getRepoTags();
      for (String tag : tags) {
        if (tag.startsWith(repository + ":") && !tag.equals(keep)) {
          try {
            docker.removeImageCmd(tag).exec();
            LOG.info("Removed the older image {}", tag);
          } catch (ConflictException | NotFoundException e) {
            LOG.debug("Kept {}: in use or already gone", tag, e); // removed by a later build
          }
        }
      }
    }
  }

  private static void copy(Path from, Path to) throws IOException {
    if (!Files.isDirectory(from)) {
      Files.createDirectories(to.getParent());
      Files.copy(from, to);
      return;
    }
    try (var files = Files.walk(from)) {
      for (Path file : (Iterable<Path>) files::iterator) {
        Path target = to.resolve(from.relativize(file).toString());
        if (Files.isDirectory(file)) {
          Files.createDirectories(target);
        } else {
          Files.copy(file, target);
        }
      }
    }
  }

  private static String jsonArray(List<String> items) {
    List<String> quoted = new ArrayList<>();
    for (String item : items) {
      quoted.add('"' + item.replace("\\", "\\\\").replace("\"", "\\\"") + '"');
    }
    return "[" + String.join(", ", quoted) + "]";
  }
}
