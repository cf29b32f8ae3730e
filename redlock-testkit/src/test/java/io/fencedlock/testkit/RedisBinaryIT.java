package io.fencedlock.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Resolution of the real binary, in this JVM and in child JVMs with a chosen environment. */
final class RedisBinaryIT {
  @TempDir Path temp;

  @Test
  void locate_calledTwice_returnsOneRunnableBinary() {
    RedisBinary first = RedisBinary.locate();

    RedisBinary second = RedisBinary.locate();

    assertThat(second).isSameAs(first);
    assertThat(first.path()).isAbsolute().isExecutable();
    assertThat(first.version()).matches("\\d+\\.\\d+\\.\\d+");
  }

  @Test
  void locate_redisServerEnvSet_usesThatBinary() throws IOException {
    Path copy = Files.copy(RedisBinary.locate().path(), temp.resolve("my-redis-server"));

    try (ChildJvmProcess child =
        ChildJvmProcess.start("locate", Map.of("REDIS_SERVER", copy.toString()))) {
      assertThat(child.awaitLine("PATH")).isEqualTo(copy.toString());
      assertThat(child.awaitExit()).isZero();
    }
  }

  @Test
  void locate_redisServerEnvNotExecutable_failsWithClearMessage() throws IOException {
    Path plain = Files.writeString(temp.resolve("redis-server"), "not a program");

    try (ChildJvmProcess child =
        ChildJvmProcess.start("locate", Map.of("REDIS_SERVER", plain.toString()))) {
      assertThat(child.awaitExit()).isNotZero();
      assertThat(child.output())
          .contains("IllegalStateException: REDIS_SERVER=" + plain + " is not an executable file");
    }
  }
}
