package io.fencedlock.testkit;

import io.fencedlock.testkit.support.TempDirs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The fixture's directories: one temporary root per {@link RedisNodes}, a data directory per node
 * below it. Deletion is {@link TempDirs}'. Stateless and thread-safe.
 */
final class NodeDirs {
  private NodeDirs() {}

  static Path createRoot() {
    return TempDirs.create("fencedlock-redis-");
  }

  static Path createChild(Path parent, String name) {
    try {
      return Files.createDirectory(parent.resolve(name));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create " + parent.resolve(name), e);
    }
  }

  /** Deletes every entry of {@code dir} except the one named {@code keep}. */
  static void deleteContentsExcept(Path dir, String keep) {
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
      for (Path entry : entries) {
        if (!entry.getFileName().toString().equals(keep)) {
          TempDirs.deleteRecursively(entry);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot wipe " + dir, e);
    }
  }
}
