package io.fencedlock.testkit;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.NotFoundException;
import io.fencedlock.testkit.support.TempDirs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The container image of a redis-server binary: {@code FROM scratch} with the binary and the host
 * libraries it loads, nothing else. Built from the very binary {@link RedisBinary#locate()}
 * resolves for the process backend, so both backends run the same server; its tag says which
 * ({@code fencedlock/redis:<version>-<first 12 hex digits of the binary's SHA-256>}), and a binary
 * that changes gets a new image. Nothing is pulled: no registry is needed.
 *
 * <p>Thread-safe: building is serialized per JVM; concurrent JVMs may both build the same tag,
 * which Docker resolves by keeping the last.
 */
final class RedisImage {
  static final String REPOSITORY = "fencedlock/redis";
  static final String BINARY_IN_IMAGE = "/usr/local/bin/redis-server";

  private static final Logger LOG = LoggerFactory.getLogger(RedisImage.class);

  private RedisImage() {}

  /** The image's tag for {@code binary}; builds the image first if the engine does not have it. */
  static synchronized String ensure(DockerClient docker, RedisBinary binary) {
    String tag = tagOf(binary);
    try {
      docker.inspectImageCmd(tag).exec();
      return tag;
    } catch (NotFoundException e) {
      build(docker, binary, tag);
      return tag;
    }
  }

  static String tagOf(RedisBinary binary) {
    return REPOSITORY + ":" + binary.version() + "-" + sha256Prefix(binary.path());
  }

  private static void build(DockerClient docker, RedisBinary binary, String tag) {
    Path context = TempDirs.create("fencedlock-redis-image-");
    try {
      copy(binary.path(), context.resolve("rootfs" + BINARY_IN_IMAGE));
      for (Path library : SharedLibraries.of(binary.path())) {
        copy(library, context.resolve("rootfs" + library)); // the file, not the symlink
      }
      Files.writeString(
          context.resolve("Dockerfile"),
          String.join(
              "\n",
              "FROM scratch",
              "COPY rootfs/ /",
              "LABEL io.fencedlock.image=redis io.fencedlock.redis.version=" + binary.version(),
              "ENTRYPOINT [\"" + BINARY_IN_IMAGE + "\"]",
              ""));
      docker
          .buildImageCmd(context.toFile())
          .withTags(Set.of(tag))
          .withPull(false)
          .start()
          .awaitImageId();
      LOG.info("Built image {} from {}", tag, binary);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot prepare the build context of " + tag, e);
    } finally {
      TempDirs.deleteRecursively(context);
    }
  }

  private static void copy(Path from, Path to) throws IOException {
    Files.createDirectories(to.getParent());
    Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING);
  }

  private static String sha256Prefix(Path file) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file));
      return HexFormat.of().formatHex(digest, 0, 6);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK must provide SHA-256", e);
    }
  }
}
