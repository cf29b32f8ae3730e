package io.fencedlock.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fencedlock.testkit.support.Timing;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Commands and faults on single nodes: kill, restart with and without persistence, pause. */
final class RedisNodeIT {
  /**
   * A command timeout short enough to make a test about a paused node quick, and long enough
   * (scaled) for a running node to answer on a busy machine.
   */
  private static final Duration SHORT_COMMAND_TIMEOUT = Timing.scaled(Duration.ofMillis(300));

  private RedisNodes redis;

  @AfterEach
  void closeNodes() {
    if (redis != null) {
      redis.close();
    }
  }

  @Test
  void command_setThenGet_returnsStoredValue() {
    RedisNode node = start(Persistence.NONE);

    assertThat(node.command("SET", "greeting", "grüß dich")).isEqualTo("OK");

    assertThat(node.command("GET", "greeting")).isEqualTo("grüß dich");
    assertThat(node.command("GET", "missing")).isNull();
    assertThat(node.command("INCR", "counter")).isEqualTo(1L);
    assertThat(node.command("KEYS", "*")).asList().containsExactlyInAnyOrder("greeting", "counter");
  }

  @Test
  void command_errorReply_throwsRedisReplyException() {
    RedisNode node = start(Persistence.NONE);
    node.command("SET", "s", "text");

    assertThatThrownBy(() -> node.command("INCR", "s"))
        .isInstanceOf(RedisReplyException.class)
        .hasMessageStartingWith("ERR value is not an integer");
  }

  @Test
  void command_noArgs_throwsNamingArgs() {
    RedisNode node = start(Persistence.NONE);

    assertThatThrownBy(() -> node.command())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("args");
  }

  @Test
  void kill_runningNode_refusesConnections() {
    RedisNode node = start(Persistence.NONE);
    long pid = node.pid();

    node.kill();

    assertThat(node.isRunning()).isFalse();
    assertThat(Processes.isAlive(pid)).isFalse();
    assertThatThrownBy(() -> node.command("PING"))
        .isInstanceOf(UncheckedIOException.class)
        .hasRootCauseInstanceOf(ConnectException.class);
  }

  @Test
  void kill_notRunning_isNoOp() {
    RedisNode node = start(Persistence.NONE);
    node.kill();

    node.kill();

    assertThat(node.isRunning()).isFalse();
  }

  @ParameterizedTest
  @EnumSource(
      value = Persistence.class,
      names = {"AOF_EVERYSEC", "AOF_ALWAYS"})
  void restart_afterKillWithAof_keepsDataOnSamePort(Persistence persistence) {
    RedisNode node = start(persistence);
    int port = node.port();
    long pid = node.pid();
    node.command("SET", "k", "survives");
    node.kill();

    node.restart();

    assertThat(node.pid()).isNotEqualTo(pid);
    assertThat(node.port()).isEqualTo(port);
    assertThat(node.command("GET", "k")).isEqualTo("survives");
    assertThat(node.persistence()).isEqualTo(persistence);
  }

  @Test
  void restart_switchingFromNoneToAofAlways_persistsLaterWrites() {
    RedisNode node = start(Persistence.NONE);
    node.command("SET", "before", "lost");
    node.restart(Persistence.AOF_ALWAYS);
    node.command("SET", "after", "kept");

    node.kill();
    node.restart();

    assertThat(node.command("KEYS", "*")).isEqualTo(List.of("after"));
    assertThat(node.command("CONFIG", "GET", "appendfsync"))
        .isEqualTo(List.of("appendfsync", "always"));
  }

  @Test
  void restart_withNoneAfterAof_comesBackEmpty() {
    RedisNode node = start(Persistence.AOF_ALWAYS);
    node.command("SET", "k", "v");
    node.command("SAVE"); // also leave an RDB behind: the wipe must remove it too

    node.restart(Persistence.NONE);

    assertThat(node.command("KEYS", "*")).isEqualTo(List.of());
    assertThat(node.command("DBSIZE")).isEqualTo(0L);
    assertThat(node.dataDir().resolve("redis.log")).exists();
  }

  @Test
  void restart_withNoneWhileRunning_losesMemory() {
    RedisNode node = start(Persistence.NONE);
    node.command("SET", "k", "v");
    node.command("SAVE");

    node.restart();

    assertThat(node.command("GET", "k")).isNull();
    assertThat(node.isRunning()).isTrue();
  }

  @Test
  void restart_portTakenMeanwhile_throwsStartupErrorAndStaysRestartable() throws IOException {
    RedisNode node = start(Persistence.NONE);
    node.kill();

    try (ServerSocket squatter =
        new ServerSocket(node.port(), 1, InetAddress.getLoopbackAddress())) {
      assertThatThrownBy(node::restart)
          .isInstanceOf(RedisStartupException.class)
          .hasMessageContaining("another process took its port")
          .hasMessageContaining("--port " + squatter.getLocalPort())
          .hasMessageContaining("Address already in use");
    }
    node.restart();

    assertThat(node.command("PING")).isEqualTo("PONG");
  }

  @Test
  void pause_runningNode_commandsTimeOut() {
    RedisNode node = start(Persistence.NONE);

    node.pause();

    assertThat(node.isPaused()).isTrue();
    assertThat(node.isRunning()).isTrue();
    assertThatThrownBy(() -> node.command(SHORT_COMMAND_TIMEOUT, "PING"))
        .isInstanceOf(UncheckedIOException.class)
        .hasRootCauseInstanceOf(SocketTimeoutException.class);
  }

  @Test
  void resume_pausedNode_answersAgainWithDataIntact() {
    RedisNode node = start(Persistence.NONE);
    node.command("SET", "k", "v");
    node.pause();

    node.resume();

    assertThat(node.isPaused()).isFalse();
    assertThat(node.command(SHORT_COMMAND_TIMEOUT, "GET", "k")).isEqualTo("v");
  }

  @Test
  void kill_pausedNode_terminatesIt() {
    RedisNode node = start(Persistence.NONE);
    long pid = node.pid();
    node.pause();

    node.kill();

    assertThat(Processes.isAlive(pid)).isFalse();
    assertThat(node.isPaused()).isFalse();
  }

  @Test
  void restart_pausedNode_comesBackAnswering() {
    RedisNode node = start(Persistence.AOF_ALWAYS);
    node.command("SET", "k", "v");
    node.pause();

    node.restart();

    assertThat(node.isPaused()).isFalse();
    assertThat(node.command(SHORT_COMMAND_TIMEOUT, "GET", "k")).isEqualTo("v");
  }

  @Test
  void pause_stoppedNode_throwsIllegalState() {
    RedisNode node = start(Persistence.NONE);
    node.stop();

    assertThatThrownBy(node::pause)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("not running");
  }

  @Test
  void restart_nullPersistence_throwsNamingPersistence() {
    RedisNode node = start(Persistence.NONE);

    assertThatThrownBy(() -> node.restart(null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("persistence");
  }

  @Test
  void close_node_killsProcessAndDeletesDataDir() {
    RedisNode node = start(Persistence.AOF_ALWAYS);
    long pid = node.pid();

    node.close();
    node.close();

    assertThat(Processes.isAlive(pid)).isFalse();
    assertThat(node.dataDir()).doesNotExist();
    assertThat(Files.exists(node.dataDir().getParent())).isTrue(); // the group's root remains
  }

  private RedisNode start(Persistence persistence) {
    redis = RedisNodes.start(1, persistence);
    return redis.node(0);
  }
}
