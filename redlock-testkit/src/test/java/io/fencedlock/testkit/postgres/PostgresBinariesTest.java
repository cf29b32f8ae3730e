package io.fencedlock.testkit.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The search order of the PostgreSQL fixture, on fake installations. */
final class PostgresBinariesTest {
  @TempDir Path root;

  @Test
  void find_pgBinSet_usedFirst() throws IOException {
    Path custom = fakeInstall(root.resolve("custom"));
    fakeInstall(root.resolve("debian/16/bin"));

    assertThat(PostgresBinaries.find(Optional.of(custom.toString()), root.resolve("debian"), ""))
        .isEqualTo(custom);
  }

  @Test
  void find_pgBinWithoutBinaries_failsNamingIt() {
    assertThatThrownBy(() -> PostgresBinaries.find(Optional.of("/nonexistent"), root, ""))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("PG_BIN=/nonexistent");
  }

  @Test
  void find_severalDebianVersions_highestNumericWins() throws IOException {
    fakeInstall(root.resolve("9.6/bin"));
    Path v15 = fakeInstall(root.resolve("15/bin"));
    fakeInstall(root.resolve("11/bin"));
    Files.createDirectories(root.resolve("17/bin")); // no binaries: ignored

    assertThat(PostgresBinaries.find(Optional.empty(), root, "")).isEqualTo(v15);
  }

  @Test
  void find_onlyOnPath_foundThere() throws IOException {
    Path onPath = fakeInstall(root.resolve("usr/bin"));

    assertThat(PostgresBinaries.find(Optional.empty(), root.resolve("none"), "/x:" + onPath))
        .isEqualTo(onPath);
  }

  @Test
  void find_nothingInstalled_failsWithInstallHint() {
    assertThatThrownBy(() -> PostgresBinaries.find(Optional.empty(), root.resolve("none"), ""))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("apt-get install postgresql")
        .hasMessageContaining("PG_BIN");
  }

  private static Path fakeInstall(Path bin) throws IOException {
    Files.createDirectories(bin);
    for (String tool : new String[] {"initdb", "pg_ctl"}) {
      Path file = Files.createFile(bin.resolve(tool));
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
    return bin;
  }
}
