package io.fencedlock.cli.demo;

import static io.fencedlock.cli.demo.KleppmannScenario.CLIENT_1;
import static io.fencedlock.cli.demo.KleppmannScenario.CLIENT_1_VALUE;
import static io.fencedlock.cli.demo.KleppmannScenario.CLIENT_2;
import static io.fencedlock.cli.demo.KleppmannScenario.CLIENT_2_VALUE;
import static org.assertj.core.api.Assertions.assertThat;

import io.fencedlock.cli.DemoEnvironment;
import io.fencedlock.cli.demo.TimelineEvent.Acquired;
import io.fencedlock.cli.demo.TimelineEvent.Wrote;
import io.fencedlock.storage.StoredObject;
import io.fencedlock.storage.client.FencedStorageClient;
import io.fencedlock.testkit.support.ChildProcess;
import io.fencedlock.testkit.support.Timing;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The demo end to end: the scenario in this JVM, then {@code ./fencedlock demo} as a process. */
final class DemoIT {
  /** {@code ./fencedlock}: possibly a Maven build first, then the demo. */
  private static final Duration LAUNCHER = Timing.scaled(Duration.ofMinutes(8));

  @TempDir Path dir;

  @Test
  void run_realNodesAndService_fencingRejectsStaleWriteAndUnfencedLosesUpdate() throws IOException {
    DemoResult result;
    Optional<StoredObject> stored;
    try (DemoEnvironment env = DemoEnvironment.start(0)) {
      result =
          new KleppmannScenario(env.nodeUris(), env.storageUrl(), KleppmannScenario.DEFAULT_TTL)
              .run(run -> {});
      stored = FencedStorageClient.create(env.storageUrl()).get(KleppmannScenario.KEY);
    }

    RunResult fenced = result.fenced();
    assertThat(fenced.client1Write().accepted()).isFalse();
    assertThat(fenced.client1Write().currentToken()).isEqualTo(fenced.client2Token());
    assertThat(fenced.client2Token().getAsLong()).isGreaterThan(fenced.client1Token().getAsLong());
    assertThat(stored).map(StoredObject::valueAsUtf8).contains(CLIENT_2_VALUE);
    assertThat(stored).map(StoredObject::token).hasValue(fenced.client2Token().getAsLong());
    RunResult unfenced = result.unfenced();
    assertThat(unfenced.client2Write().accepted()).isTrue();
    assertThat(unfenced.finalValue()).contains(CLIENT_1_VALUE);
    assertThat(result.asExpected()).isTrue();
    result.runs().forEach(DemoIT::assertClient1WroteAfterItsLeaseRanOut);

    Path report = dir.resolve("report.html");
    HtmlReport.write(result, report);
    String html = Files.readString(report);
    assertThat(html).contains("<svg ", "data-client=\"client 1\"", "data-client=\"client 2\"");
  }

  @Test
  void launcher_demo_exitsZeroAndPrintsTheTimeline() {
    Path report = dir.resolve("launched/report.html");
    Path launcher = projectRoot().resolve("fencedlock");
    try (ChildProcess demo =
        ChildProcess.start(
            dir, dir, List.of(launcher.toString(), "demo", "--report", report.toString()))) {
      int exit = demo.awaitExit(LAUNCHER);

      assertThat(exit).as("exit code; stderr:\n%s", demo.stderr()).isZero();
      assertThat(demo.stdout())
          .contains(
              "== fenced:",
              "REJECTED (409 Conflict, STALE: current token",
              "client 1's stale write was rejected; client 2's update survives [as expected]",
              "== unfenced:",
              "LOST UPDATE",
              "report: " + report,
              "demo OK");
    }
    assertThat(report).isRegularFile();
  }

  @Test
  void demoMain_unknownOption_exitsTwoWithUsage() {
    try (ChildProcess demo =
        ChildProcess.start(dir, dir, ChildProcess.java(DemoMain.class, "-x"))) {
      assertThat(demo.awaitExit(Timing.PROCESS)).isEqualTo(2);
      assertThat(demo.stderr()).contains("unknown option -x", "usage: ./fencedlock demo");
    }
  }

  @Test
  void demoMain_help_printsUsageAndExitsZero() {
    try (ChildProcess demo =
        ChildProcess.start(dir, dir, ChildProcess.java(DemoMain.class, "--help"))) {
      assertThat(demo.awaitExit(Timing.PROCESS)).isZero();
      assertThat(demo.stdout()).startsWith("usage: ./fencedlock demo").contains("--report FILE");
    }
  }

  /** The pause was real: client 2 got the lock, and client 1 wrote, only after its lease ended. */
  private static void assertClient1WroteAfterItsLeaseRanOut(RunResult run) {
    Acquired lease1 =
        run.events().stream()
            .filter(e -> e instanceof Acquired && e.actor().equals(CLIENT_1))
            .map(Acquired.class::cast)
            .findFirst()
            .orElseThrow();
    long client2Acquired =
        run.events().stream()
            .filter(e -> e instanceof Acquired && e.actor().equals(CLIENT_2))
            .mapToLong(TimelineEvent::atMillis)
            .findFirst()
            .orElseThrow();
    long client1Wrote =
        run.events().stream()
            .filter(e -> e instanceof Wrote && e.actor().equals(CLIENT_1))
            .mapToLong(TimelineEvent::atMillis)
            .findFirst()
            .orElseThrow();
    assertThat(client2Acquired).isGreaterThanOrEqualTo(lease1.validUntilMillis());
    assertThat(client1Wrote).isGreaterThan(lease1.validUntilMillis());
  }

  /** The directory holding the {@code fencedlock} launcher: this module's parent. */
  static Path projectRoot() {
    Path dir = Path.of("").toAbsolutePath();
    while (dir != null && !Files.isRegularFile(dir.resolve("fencedlock"))) {
      dir = dir.getParent();
    }
    assertThat(dir).as("a parent directory with the fencedlock launcher").isNotNull();
    return dir;
  }
}
