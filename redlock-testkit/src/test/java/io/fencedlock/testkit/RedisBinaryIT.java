package io.fencedlock.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencedlock.testkit.support.ChildProcess;
import io.fencedlock.testkit.support.Timing;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Resolution of the real binary, in this JVM and in child JVMs with a chosen environment. */
final class RedisBinaryIT {
  private static final Pattern PATH = Pattern.compile("PATH (.+)");

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

    try (ChildProcess child = locateIn(Map.of("REDIS_SERVER", copy.toString()))) {
      assertThat(child.awaitLine(PATH, Timing.PROCESS).group(1)).isEqualTo(copy.toString());
      assertThat(child.awaitExit(Timing.PROCESS)).isZero();
    }
  }

  @Test
  void locate_redisServerEnvNotExecutable_failsWithClearMessage() throws IOException {
    Path plain = Files.writeString(temp.resolve("redis-server"), "not a program");

    try (ChildProcess child = locateIn(Map.of("REDIS_SERVER", plain.toString()))) {
      assertThat(child.awaitExit(Timing.PROCESS)).isNotZero();
      assertThat(child.stderr())
          .contains("IllegalStateException: REDIS_SERVER=" + plain + " is not an executable file");
    }
  }

  /** A child JVM that locates the binary with {@code env} added to its environment. */
  private ChildProcess locateIn(Map<String, String> env) {
    return ChildProcess.start(temp, temp, env, ChildProcess.java(ChildJvm.class, "locate"));
  }
}
