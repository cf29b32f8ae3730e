package io.fencedlock.cli.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fencedlock.redlock.Lease;
import io.fencedlock.redlock.Redlock;
import io.fencedlock.redlock.RedlockConfig;
import io.fencedlock.testkit.RedisNode;
import io.fencedlock.testkit.RedisNodes;
import io.fencedlock.testkit.support.ChildProcess;
import io.fencedlock.testkit.support.Timing;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ./fencedlock exec} as a separate process against real Redis nodes. */
final class ExecIT {
  private static RedisNodes nodes;
  @TempDir Path dir;

  @BeforeAll
  static void startNodes() {
    nodes = RedisNodes.start(5);
  }

  @AfterAll
  static void stopNodes() {
    nodes.close();
  }

  @AfterEach
  void heal() {
    for (RedisNode node : nodes) {
      if (node.isPaused()) {
        node.resume();
      }
    }
  }

  @Test
  void exec_commandSucceeds_seesTheLeaseInItsEnvironmentAndItsExitStatusIsExecs()
      throws IOException {
    Path seen = dir.resolve("env");
    ChildProcess exec =
        exec(
            List.of(
                "--ttl",
                "2s",
                "env:seen",
                "--",
                "sh",
                "-c",
                "echo \"$FENCEDLOCK_RESOURCE $FENCEDLOCK_TOKEN $FENCEDLOCK_OWNER\" > "
                    + seen
                    + "; exit 7"));

    assertThat(exec.awaitExit(Timing.PROCESS)).as(exec.output()).isEqualTo(7);
    String[] env = Files.readString(seen).trim().split(" ");
    assertThat(env[0]).isEqualTo("env:seen");
    assertThat(Long.parseLong(env[1])).isPositive();
    assertThat(env[2]).matches("[0-9a-f]{32}");
    await().atMost(Timing.AWAIT).until(() -> holding("env:seen") == 0); // released
  }

  @Test
  void exec_twoAtOnceOnOneResource_commandsNeverOverlap() throws IOException {
    Path log = dir.resolve("log");
    List<ChildProcess> execs = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      execs.add(
          exec(
              List.of(
                  "--ttl",
                  "2s",
                  "--wait",
                  "60s",
                  "shared",
                  "--",
                  "sh",
                  "-c",
                  "echo start $$ >> " + log + "; sleep 0.5; echo end $$ >> " + log)));
    }
    for (ChildProcess exec : execs) {
      assertThat(exec.awaitExit(Timing.PROCESS)).as(exec.output()).isZero();
    }

    List<String> lines = Files.readAllLines(log);
    assertThat(lines).hasSize(4);
    for (int i = 0; i < 4; i += 2) {
      assertThat(lines.get(i)).startsWith("start");
      assertThat(lines.get(i + 1))
          .isEqualTo(lines.get(i).replace("start", "end")); // each ends before the next starts
    }
  }

  @Test
  void exec_lockHeldElsewhere_exitsNotAcquiredWithoutRunningTheCommand() throws IOException {
    Path ran = dir.resolve("ran");
    try (Redlock holder = Redlock.create(RedlockConfig.builder().nodes(nodes.uris()).build());
        Lease held = holder.acquire("busy", Duration.ofSeconds(30), Timing.AWAIT)) {
      ChildProcess exec = exec(List.of("--wait", "0s", "busy", "--", "touch", ran.toString()));

      assertThat(exec.awaitExit(Timing.PROCESS))
          .as(exec.output())
          .isEqualTo(ExitCode.NOT_ACQUIRED.code);
    }
    assertThat(ran).doesNotExist();
  }

  @Test
  void exec_leaseLostWhileTheCommandRuns_stopsItWithSigtermAndExitsLeaseLost() throws IOException {
    Path terminated = dir.resolve("terminated");
    Path started = dir.resolve("started");
    // The grace ends with the lease's validity, and the loss is declared with a node timeout plus
    // a twentieth of the TTL left: 100 ms at 1 s, which a CI run on a host busy with other builds
    // once spent before the shell's trap ran (SIGKILL came first); 250 ms at 4 s.
    ChildProcess exec =
        exec(
            List.of(
                "--ttl",
                "4s",
                "--grace",
                "5s",
                "lost",
                "--",
                "sh",
                "-c",
                "trap 'echo term > "
                    + terminated
                    + "; exit 0' TERM; touch "
                    + started
                    + "; while true; do sleep 0.1; done"));
    await().atMost(Timing.PROCESS).until(() -> Files.exists(started));

    for (int i = 0; i < 3; i++) {
      nodes.node(i).pause(); // renewal can no longer reach a quorum
    }

    assertThat(exec.awaitExit(Timing.PROCESS))
        .as(exec.output())
        .isEqualTo(ExitCode.LEASE_LOST.code);
    assertThat(terminated).hasContent("term");
  }

  @Test
  void exec_leaseLost_stopsWhatTheCommandStartedToo() throws IOException {
    Path ticks = dir.resolve("ticks");
    Path started = dir.resolve("started");
    ChildProcess exec =
        exec(
            List.of(
                "--ttl",
                "1s",
                "--grace",
                "1s",
                "family",
                "--",
                "sh",
                "-c",
                "(while true; do echo x >> "
                    + ticks
                    + "; sleep 0.05; done) & touch "
                    + started
                    + "; wait"));
    await().atMost(Timing.PROCESS).until(() -> Files.exists(started));
    for (int i = 0; i < 3; i++) {
      nodes.node(i).pause();
    }

    assertThat(exec.awaitExit(Timing.PROCESS))
        .as(exec.output())
        .isEqualTo(ExitCode.LEASE_LOST.code);
    long size = Files.size(ticks);
    await()
        .during(Duration.ofMillis(500))
        .atMost(Duration.ofSeconds(2))
        .until(() -> Files.size(ticks) == size);
  }

  @Test
  void exec_pausedPastItsValidity_stopsTheCommandWhenResumed() throws IOException {
    Path started = dir.resolve("started");
    ChildProcess exec =
        exec(
            List.of(
                "--ttl",
                "1s",
                "--grace",
                "1s",
                "paused",
                "--",
                "sh",
                "-c",
                "touch " + started + "; while true; do sleep 0.1; done"));
    await().atMost(Timing.PROCESS).until(() -> Files.exists(started) && holding("paused") >= 3);
    ProcessHandle jvm = ProcessHandle.of(exec.pid()).orElseThrow();

    signal(jvm, "STOP"); // the holder itself pauses (a GC pause, a SIGSTOP) past its validity
    await().atMost(Timing.AWAIT).until(() -> holding("paused") == 0); // its keys expire
    signal(jvm, "CONT");

    assertThat(exec.awaitExit(Timing.PROCESS))
        .as(exec.output())
        .isEqualTo(ExitCode.LEASE_LOST.code);
    assertThat(exec.stderr()).contains("EXPIRED");
  }

  @Test
  void exec_sigtermToExec_reachesTheCommandAndReleasesTheLock() throws IOException {
    Path terminated = dir.resolve("terminated");
    Path started = dir.resolve("started");
    ChildProcess exec =
        exec(
            List.of(
                "--ttl",
                "10s",
                "signalled",
                "--",
                "sh",
                "-c",
                "trap 'echo term > "
                    + terminated
                    + "; exit 0' TERM; touch "
                    + started
                    + "; while true; do sleep 0.1; done"));
    await().atMost(Timing.PROCESS).until(() -> Files.exists(started) && holding("signalled") >= 3);

    assertThat(exec.terminate(Timing.PROCESS)).as("the command's own status").isZero();

    assertThat(terminated).hasContent("term");
    await()
        .atMost(Timing.AWAIT)
        .until(() -> holding("signalled") == 0); // released, long before its TTL
  }

  @Test
  void exec_badUsageOrNoNodeAnswering_exitWithTheirCodes() {
    ChildProcess usage = exec(List.of("resource-without-command"));
    assertThat(usage.awaitExit(Timing.PROCESS)).as(usage.output()).isEqualTo(ExitCode.USAGE.code);

    ChildProcess unreachable =
        ChildProcess.start(
            dir,
            dir,
            Map.of(),
            ChildProcess.java(
                ExecMain.class,
                "--nodes",
                "redis://127.0.0.1:1,redis://127.0.0.1:2,redis://127.0.0.1:3",
                "--wait",
                "0s",
                "r",
                "--",
                "true"));
    assertThat(unreachable.awaitExit(Timing.PROCESS))
        .as(unreachable.output())
        .isEqualTo(ExitCode.NODES_UNREACHABLE.code);
  }

  private ChildProcess exec(List<String> args) {
    List<String> all = new ArrayList<>(List.of("--nodes", String.join(",", nodes.uris())));
    all.addAll(args);
    return ChildProcess.start(
        dir, dir, Map.of(), ChildProcess.java(ExecMain.class, all.toArray(String[]::new)));
  }

  private static void signal(ProcessHandle process, String signal) throws IOException {
    try {
      new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).start().waitFor();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static long holding(String key) {
    return nodes.nodes().stream()
        .filter(n -> Long.valueOf(1).equals(n.command("EXISTS", key)))
        .count();
  }
}
