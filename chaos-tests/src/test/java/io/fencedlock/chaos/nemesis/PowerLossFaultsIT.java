package io.fencedlock.chaos.nemesis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fencedlock.redlock.spi.NodeKeys;
import io.fencedlock.testkit.Persistence;
import io.fencedlock.testkit.RedisNode;
import io.fencedlock.testkit.RedisNodes;
import io.fencedlock.testkit.support.Timing;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A power loss against a real node on {@code appendfsync everysec}: what was written after the last
 * (emulated) fsync is gone after the restart, the marker written before it survives, and the
 * fault's effect names exactly the counters that went back. The emulated fsync runs only when the
 * test says so (an hour apart otherwise), and only once the node has written what the test sent to
 * its file (with {@code everysec}, Redis may acknowledge a write before it reaches the file while a
 * background fsync is slow: seen under load), so what is lost is known.
 */
final class PowerLossFaultsIT {
  private static final long NEVER_MILLIS = 3_600_000;

  private RedisNodes nodes;
  private PowerLossFaults faults;

  @BeforeEach
  void start() {
    nodes = RedisNodes.start(2, Persistence.AOF_EVERYSEC);
    faults = new PowerLossFaults(nodes, NEVER_MILLIS);
  }

  @AfterEach
  void stop() {
    faults.close();
    nodes.close();
  }

  @Test
  void countersWrittenAfterTheLastFsyncRollBackWhileTheMarkerSurvives() {
    RedisNode node = nodes.node(1);
    node.command("SET", NodeKeys.MARKER, "1");
    node.command("SET", "{r1}:fence", "10");
    node.command("SET", "{r2}:fence", "7");
    node.command("SET", NodeKeys.HIGH_WATER, "10");
    awaitInFile(node, NodeKeys.HIGH_WATER, "10");
    faults.tick();
    node.command("SET", "{r1}:fence", "25");
    node.command("SET", NodeKeys.HIGH_WATER, "25");
    awaitInFile(node, NodeKeys.HIGH_WATER, "25");

    String effect = faults.apply(1, new Fault.PowerLoss(new TreeSet<>(List.of(1))));

    assertThat(effect)
        .contains("n1 lost ")
        .contains("2 of 3 counters rolled back (redlock:node-max-token 25→10, {r1}:fence 25→10)")
        .endsWith("marker kept");
    assertThat(node.command("GET", "{r1}:fence")).isEqualTo("10");
    assertThat(node.command("GET", "{r2}:fence")).isEqualTo("7");
    assertThat(node.command("EXISTS", NodeKeys.MARKER)).isEqualTo(1L);
  }

  @Test
  void nothingRollsBackWhenEverythingWasSynced() {
    RedisNode node = nodes.node(0);
    node.command("SET", NodeKeys.MARKER, "1");
    node.command("SET", "{r1}:fence", "3");
    awaitInFile(node, "{r1}:fence", "3");
    faults.tick();

    String effect = faults.apply(1, new Fault.PowerLoss(new TreeSet<>(List.of(0))));

    assertThat(effect).contains("n0 lost 0 bytes, 0 of 1 counters rolled back, marker kept");
    assertThat(node.command("GET", "{r1}:fence")).isEqualTo("3");
  }

  /** Waits (bounded) until the node's append-only file ends with {@code SET key value}. */
  private static void awaitInFile(RedisNode node, String key, String value) {
    String set =
        "*3\r\n$3\r\nSET\r\n$"
            + key.length()
            + "\r\n"
            + key
            + "\r\n$"
            + value.length()
            + "\r\n"
            + value
            + "\r\n";
    Path aof = node.dataDir().resolve(PowerLossFaults.AOF);
    await("SET " + key + " " + value + " in " + aof)
        .atMost(Timing.PROCESS)
        .pollInterval(Duration.ofMillis(10))
        .until(
            () ->
                Files.exists(aof)
                    && Files.readString(aof, StandardCharsets.ISO_8859_1).endsWith(set));
  }
}
