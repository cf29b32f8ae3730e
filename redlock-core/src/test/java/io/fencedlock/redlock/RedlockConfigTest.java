package io.fencedlock.redlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

final class RedlockConfigTest {

  @Test
  void build_fiveNodes_derivesQuorumOfThreeAndDefaults() {
    RedlockConfig config =
        RedlockConfig.builder()
            .nodes(
                "redis://127.0.0.1:7001",
                "redis://127.0.0.1:7002",
                "redis://127.0.0.1:7003",
                "redis://127.0.0.1:7004",
                "redis://127.0.0.1:7005")
            .build();

    assertThat(config.quorum()).isEqualTo(3);
    assertThat(config.keyPrefix()).isEmpty();
    assertThat(config.fencing()).isTrue();
    assertThat(config.tokenPrediction()).isTrue();
    assertThat(config.maxLocalHandoffs()).isEqualTo(RedlockConfig.DEFAULT_MAX_LOCAL_HANDOFFS);
    assertThat(config.driftFactor()).isEqualTo(0.01);
    assertThat(config.nodeTimeout()).isEqualTo(Duration.ofMillis(50));
  }

  @Test
  void quorum_evenNodeCount_isStrictMajority() {
    assertThat(nodes(4).quorum()).isEqualTo(3);
    assertThat(nodes(1).quorum()).isEqualTo(1);
    assertThat(nodes(2).quorum()).isEqualTo(2);
  }

  @Test
  void nodes_empty_throwsNamingNodes() {
    assertThatThrownBy(() -> RedlockConfig.builder().nodes(List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("nodes");
  }

  @Test
  void nodes_duplicateHostAndPort_throws() {
    assertThatThrownBy(
            () ->
                RedlockConfig.builder()
                    .nodes("redis://127.0.0.1:7001", "redis://:pw@127.0.0.1:7001"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("nodes[1] duplicates");
  }

  @Test
  void nodes_sameServerDifferentDatabase_throws() {
    // One server with three databases would make a quorum of three "nodes" on its own.
    assertThatThrownBy(
            () ->
                RedlockConfig.builder()
                    .nodes("redis://127.0.0.1:7001/0", "redis://127.0.0.1:7001/1"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("nodes[1] duplicates nodes[0]");
  }

  @Test
  void nodes_oneLoopbackServerByThreeNames_throws() {
    assertThatThrownBy(
            () -> RedlockConfig.builder().nodes("redis://localhost:7001", "redis://127.0.0.1:7001"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("nodes[1] duplicates nodes[0]");
    assertThatThrownBy(
            () -> RedlockConfig.builder().nodes("redis://127.0.0.1:7001", "redis://[::1]:7001"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("nodes[1] duplicates nodes[0]");
    assertThatThrownBy(
            () ->
                RedlockConfig.builder()
                    .nodes(
                        "redis://[::1]:7001", "redis://LOCALHOST:7002", "redis://localhost:7001"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("nodes[2] duplicates nodes[0]");
  }

  @Test
  void nodes_distinctSocketPaths_areThreeNodes() {
    RedlockConfig config =
        RedlockConfig.builder()
            .nodes(
                "redis-socket:///tmp/fencedlock-a.sock",
                "redis-socket:///tmp/fencedlock-b.sock",
                "redis-socket:///tmp/fencedlock-c.sock")
            .build();
    assertThat(config.quorum()).isEqualTo(2);
  }

  @Test
  void nodes_oneSocketPathTwice_throws() {
    assertThatThrownBy(
            () ->
                RedlockConfig.builder()
                    .nodes(
                        "redis-socket:///tmp/fencedlock-a.sock",
                        "redis-socket:///tmp/./fencedlock-a.sock"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("nodes[1] duplicates nodes[0]");
  }

  @Test
  void nodes_sentinelUri_throwsBecauseRedlockNeedsIndependentMasters() {
    assertThatThrownBy(
            () -> RedlockConfig.builder().nodes("redis-sentinel://127.0.0.1:26379#mymaster"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("nodes[0]")
        .hasMessageContaining("Sentinel");
  }

  @Test
  void nodes_unparsableUri_throwsNamingIndex() {
    assertThatThrownBy(() -> RedlockConfig.builder().nodes("redis://127.0.0.1:7001", "http://nope"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("nodes[1]");
  }

  @Test
  void nodes_portZero_throwsRatherThanMeaning6379() {
    // Lettuce reads port 0 as no port at all and connects to 6379: perhaps another server.
    assertThatThrownBy(() -> RedlockConfig.builder().nodes("redis://127.0.0.1:7001", "redis://h:0"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("nodes[1]")
        .hasMessageContaining("port 0");
    assertThatThrownBy(() -> RedlockConfig.builder().nodes("rediss://:pw@[::1]:00/2"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("nodes[0]")
        .hasMessageContaining("port 0")
        .hasMessageNotContaining("pw");
    assertThat(RedlockConfig.builder().nodes("redis://127.0.0.1").build().nodes())
        .as("no port is the default port")
        .containsExactly("redis://127.0.0.1");
  }

  @Test
  void nodes_blankEntry_throws() {
    assertThatThrownBy(
            () -> RedlockConfig.builder().nodes(Arrays.asList("redis://127.0.0.1:7001", " ")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("nodes[1]");
  }

  @Test
  void build_withoutNodes_throwsIllegalState() {
    assertThatThrownBy(() -> RedlockConfig.builder().build())
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void setter_calledTwice_throwsIllegalState() {
    RedlockConfig.Builder builder = RedlockConfig.builder().nodeTimeout(Duration.ofMillis(10));
    assertThatThrownBy(() -> builder.nodeTimeout(Duration.ofMillis(20)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("nodeTimeout was already set");
  }

  @Test
  void durations_negativeOrZero_throwNamingParameter() {
    assertThatThrownBy(() -> RedlockConfig.builder().nodeTimeout(Duration.ZERO))
        .hasMessageContaining("nodeTimeout");
    assertThatThrownBy(() -> RedlockConfig.builder().connectTimeout(Duration.ofMillis(-1)))
        .hasMessageContaining("connectTimeout");
    assertThatThrownBy(() -> RedlockConfig.builder().retryDelay(Duration.ofMillis(-1)))
        .hasMessageContaining("retryDelay");
    assertThatThrownBy(() -> RedlockConfig.builder().retryJitter(Duration.ofMillis(-1)))
        .hasMessageContaining("retryJitter");
    assertThatThrownBy(() -> RedlockConfig.builder().maxLeaseTtl(Duration.ZERO))
        .hasMessageContaining("maxLeaseTtl");
    assertThatThrownBy(() -> RedlockConfig.builder().maxExtensions(-1))
        .hasMessageContaining("maxExtensions");
    assertThatThrownBy(() -> RedlockConfig.builder().maxLocalHandoffs(-1))
        .hasMessageContaining("maxLocalHandoffs");
  }

  @Test
  void retryDelay_belowOneMillisecond_throwsRatherThanRetryingInABusyLoop() {
    assertThatThrownBy(() -> RedlockConfig.builder().retryDelay(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("retryDelay");
    assertThatThrownBy(() -> RedlockConfig.builder().retryDelay(Duration.ofNanos(999_999)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("retryDelay");
    assertThat(RedlockConfig.builder().retryDelay(Duration.ofMillis(1)).retryJitter(Duration.ZERO))
        .isNotNull();
  }

  @Test
  void durations_beyondTheirRange_throwNamingParameter() {
    Duration centuries = Duration.ofDays(365L * 300);
    assertThatThrownBy(() -> RedlockConfig.builder().maxLeaseTtl(centuries))
        .hasMessageContaining("maxLeaseTtl");
    assertThatThrownBy(() -> RedlockConfig.builder().maxLeaseTtl(Duration.ofDays(8)))
        .hasMessageContaining("maxLeaseTtl");
    assertThatThrownBy(() -> RedlockConfig.builder().nodeTimeout(centuries))
        .hasMessageContaining("nodeTimeout");
    assertThatThrownBy(() -> RedlockConfig.builder().connectTimeout(centuries))
        .hasMessageContaining("connectTimeout");
    assertThatThrownBy(() -> RedlockConfig.builder().retryDelay(centuries))
        .hasMessageContaining("retryDelay");
    assertThatThrownBy(() -> RedlockConfig.builder().retryJitter(centuries))
        .hasMessageContaining("retryJitter");
    assertThat(RedlockConfig.builder().maxLeaseTtl(Duration.ofDays(7))).isNotNull();
  }

  @Test
  void keyPrefix_reservedForTheNodesOwnKeys_throws() {
    assertThatThrownBy(() -> RedlockConfig.builder().keyPrefix("redlock:node-"))
        .hasMessageContaining("keyPrefix");
  }

  @Test
  void driftFactor_outOfRange_throws() {
    assertThatThrownBy(() -> RedlockConfig.builder().driftFactor(-0.1))
        .hasMessageContaining("driftFactor");
    assertThatThrownBy(() -> RedlockConfig.builder().driftFactor(0.5))
        .hasMessageContaining("driftFactor");
  }

  @Test
  void build_fewerThanThreeOrEvenNodes_warnsOnceWithTheFaultTolerance() {
    try (LogCapture log = new LogCapture()) {
      nodes(4);
      assertThat(configWarnings(log))
          .singleElement()
          .asString()
          .contains("4 Redis nodes tolerate 1 failure, as 3 do; quorum 3");
    }
    try (LogCapture log = new LogCapture()) {
      nodes(2);
      assertThat(configWarnings(log))
          .singleElement()
          .asString()
          .contains("2 Redis nodes tolerate no failure, as 1 does; quorum 2");
    }
    try (LogCapture log = new LogCapture()) {
      nodes(1);
      assertThat(configWarnings(log))
          .singleElement()
          .asString()
          .contains("1 Redis node tolerates no failure; quorum 1");
    }
  }

  @Test
  void build_oddNodesFromThree_doesNotWarn() {
    try (LogCapture log = new LogCapture()) {
      nodes(3);
      nodes(5);
      assertThat(configWarnings(log)).isEmpty();
    }
  }

  private static List<String> configWarnings(LogCapture log) {
    return log.lines("WARN").stream().filter(line -> line.contains("RedlockConfig")).toList();
  }

  private static RedlockConfig nodes(int count) {
    String[] uris = new String[count];
    for (int i = 0; i < count; i++) {
      uris[i] = "redis://127.0.0.1:" + (7001 + i);
    }
    return RedlockConfig.builder().nodes(uris).build();
  }
}
