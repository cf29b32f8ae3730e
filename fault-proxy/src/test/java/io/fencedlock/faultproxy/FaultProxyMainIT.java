package io.fencedlock.faultproxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencedlock.testkit.support.ChildProcess;
import io.fencedlock.testkit.support.Timing;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The standalone entry point as a real process: bad arguments, and a clean stop on SIGTERM. */
final class FaultProxyMainIT {
  private static final Pattern BANNER =
      Pattern.compile("fault proxy listening on http://127\\.0\\.0\\.1:\\d+ \\(seed 11\\)");

  @TempDir Path logs;

  @Test
  void main_badArgument_exitsWithUsage() {
    try (ChildProcess process = launch("--port", "nope")) {
      assertThat(process.awaitExit(Timing.PROCESS)).isEqualTo(2);
      assertThat(process.stderr())
          .contains("--port must be a number")
          .contains("usage: FaultProxyMain");
    }
  }

  @Test
  void main_sigterm_printsUrlThenStopsCleanly() {
    try (ChildProcess process = launch("--port", "0", "--seed", "11")) {
      process.awaitLine(BANNER, Timing.PROCESS);

      process.terminate(Timing.PROCESS);

      List<String> lines = process.stdout().lines().toList();
      assertThat(lines).as(process.output()).hasSize(2);
      assertThat(lines.get(1)).isEqualTo("fault proxy stopped");
    }
  }

  private ChildProcess launch(String... args) {
    return ChildProcess.start(
        logs,
        ChildProcess.java(
            List.of("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"), FaultProxyMain.class, args));
  }
}
