package io.fencedlock.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/** Creates and deletes the fixture's temporary directories. Stateless and thread-safe. */
final class TempDirs {
  private TempDirs() {}

  static Path createRoot() {
    try {
      return Files.createTempDirectory("fencedlock-redis-");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a temp dir under java.io.tmpdir", e);
    }
  }

  static Path createChild(Path parent, String name) {
    try {
      return Files.createDirectory(parent.resolve(name));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create " + parent.resolve(name), e);
    }
  }

  /** Deletes {@code dir} and everything below it; a missing dir is fine. */
  static void deleteRecursively(Path dir) {
    try {
      Files.walkFileTree(dir, new Deleter());
    } catch (NoSuchFileException e) {
      return; // already gone, which is the goal
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + dir, e);
    }
  }

  /** Deletes every entry of {@code dir} except the one named {@code keep}. */
  static void deleteContentsExcept(Path dir, String keep) {
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
      for (Path entry : entries) {
        if (!entry.getFileName().toString().equals(keep)) {
          deleteRecursively(entry);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot wipe " + dir, e);
    }
  }

  private static final class Deleter extends SimpleFileVisitor<Path> {
    @Override
    public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
      Files.deleteIfExists(file);
      return FileVisitResult.CONTINUE;
    }

    @Override
    public FileVisitResult visitFileFailed(Path file, IOException failure) throws IOException {
      if (failure instanceof NoSuchFileException) {
        return FileVisitResult.CONTINUE; // vanished while walking: nothing left to delete
      }
      throw failure;
    }

    @Override
    public FileVisitResult postVisitDirectory(Path dir, IOException failure) throws IOException {
      if (failure != null) {
        throw failure;
      }
      Files.deleteIfExists(dir);
      return FileVisitResult.CONTINUE;
    }
  }
}
