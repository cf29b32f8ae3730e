package io.fencedlock.testkit.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Temporary directories of fixtures, tests and the demo: made under {@code java.io.tmpdir} and
 * deleted with everything below them. Stateless and thread-safe.
 */
public final class TempDirs {
  private TempDirs() {}

  /**
   * Creates a new directory under {@code java.io.tmpdir} whose name starts with {@code prefix}.
   *
   * @throws UncheckedIOException if it cannot be created
   */
  public static Path create(String prefix) {
    try {
      return Files.createTempDirectory(prefix);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a temp dir under java.io.tmpdir", e);
    }
  }

  /**
   * Deletes {@code dir} and everything below it. A missing directory, or entries that vanish while
   * it walks (a process still shutting down), are fine: gone is the goal.
   *
   * @throws UncheckedIOException if something that exists cannot be deleted
   */
  public static void deleteRecursively(Path dir) {
    try {
      Files.walkFileTree(dir, new Deleter());
    } catch (NoSuchFileException e) {
      return; // already gone, which is the goal
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + dir, e);
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
