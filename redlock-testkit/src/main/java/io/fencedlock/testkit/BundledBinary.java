package io.fencedlock.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Extracts a redis-server binary shipped as a classpath resource into a cache dir.
 *
 * <p>The cache path contains a hash of the content, so a different jar version never reuses a stale
 * file. Each extraction writes a private temp file and renames it into place atomically: concurrent
 * JVMs may both extract, but nobody ever sees or executes a half-written binary, and replacing a
 * file that another JVM is executing is harmless on Linux.
 *
 * <p>Stateless and thread-safe.
 */
final class BundledBinary {
  private BundledBinary() {}

  static Path extract(String resource, Path cacheRoot) {
    byte[] content = readResource(resource);
    Path dir = cacheRoot.resolve(resource + "-" + sha256Prefix(content));
    Path target = dir.resolve(BinaryResolver.EXECUTABLE_NAME);
    try {
      if (isUsable(target, content.length)) {
        return target;
      }
      Files.createDirectories(dir);
      Path temp = Files.createTempFile(dir, "redis-server-", ".part");
      try {
        Files.write(temp, content);
        Files.setPosixFilePermissions(temp, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
      } finally {
        Files.deleteIfExists(temp);
      }
      return target;
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot extract bundled "
              + resource
              + " to "
              + target
              + "; set REDIS_SERVER to an installed redis-server instead",
          e);
    }
  }

  private static boolean isUsable(Path target, long expectedSize) throws IOException {
    return Files.isRegularFile(target)
        && Files.isExecutable(target)
        && Files.size(target) == expectedSize;
  }

  private static byte[] readResource(String resource) {
    try (InputStream in = BundledBinary.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException(
            "classpath resource "
                + resource
                + " not found; is com.github.codemonstur:"
                + "embedded-redis on the classpath? Or set REDIS_SERVER.");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read classpath resource " + resource, e);
    }
  }

  private static String sha256Prefix(byte[] content) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(content);
      return HexFormat.of().formatHex(digest, 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK must provide SHA-256", e);
    }
  }
}
