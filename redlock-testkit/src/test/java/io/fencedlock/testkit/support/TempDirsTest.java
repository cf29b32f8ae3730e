package io.fencedlock.testkit.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Temporary directories are made under java.io.tmpdir and deleted with everything below them. */
final class TempDirsTest {

  @Test
  void create_prefix_makesAFreshDirectoryUnderTmp() {
    Path dir = TempDirs.create("fencedlock-test-");
    try {
      assertThat(dir).isDirectory().isEmptyDirectory();
      assertThat(dir.getFileName().toString()).startsWith("fencedlock-test-");
      assertThat(dir.getParent()).isEqualTo(Path.of(System.getProperty("java.io.tmpdir")));
    } finally {
      TempDirs.deleteRecursively(dir);
    }
  }

  @Test
  void deleteRecursively_nestedFiles_removesEverything() throws IOException {
    Path dir = TempDirs.create("fencedlock-test-");
    Files.writeString(Files.createDirectories(dir.resolve("a/b")).resolve("f"), "x");
    Files.writeString(dir.resolve("g"), "y");

    TempDirs.deleteRecursively(dir);

    assertThat(dir).doesNotExist();
  }

  @Test
  void deleteRecursively_missingDirectory_isFine() {
    Path dir = TempDirs.create("fencedlock-test-");
    TempDirs.deleteRecursively(dir);

    TempDirs.deleteRecursively(dir);

    assertThat(dir).doesNotExist();
  }
}
