package io.fencedlock.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class RedisBinaryTest {
  @TempDir Path temp;

  @Test
  void probe_scriptPrintingRedisVersionLine_parsesVersion() throws IOException {
    Path fake = script("echo 'Redis server v=7.2.4 sha=00000000:0 malloc=libc bits=64'");

    RedisBinary binary = RedisBinary.probe(fake);

    assertThat(binary.version()).isEqualTo("7.2.4");
    assertThat(binary.path()).isEqualTo(fake);
  }

  @Test
  void probe_executableWithoutVersion_throwsWithItsOutput() throws IOException {
    Path fake = script("echo 'hello'");

    assertThatThrownBy(() -> RedisBinary.probe(fake))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("without a version")
        .hasMessageContaining("hello");
  }

  @Test
  void probe_failingExecutable_throwsWithExitCode() throws IOException {
    Path fake = script("echo 'Redis server v=1.0.0'; exit 3");

    assertThatThrownBy(() -> RedisBinary.probe(fake))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("exited 3");
  }

  @Test
  void probe_fileThatCannotRun_throwsIllegalState() throws IOException {
    Path notAProgram = Files.writeString(temp.resolve("redis-server"), "x");

    assertThatThrownBy(() -> RedisBinary.probe(notAProgram))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("cannot execute " + notAProgram);
  }

  private Path script(String body) throws IOException {
    Path file = Files.writeString(temp.resolve("fake-redis"), "#!/bin/sh\n" + body + "\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwx------"));
    return file;
  }
}
