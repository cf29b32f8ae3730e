package io.fencedlock.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fencedlock.testkit.support.Timing;
import java.io.UncheckedIOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link Deployment} backend promises, run against each one by a subclass: the node
 * faults a Redlock test relies on behave the same whatever runs the nodes.
 */
abstract class DeploymentContract {
  /** A command to a node that should answer at once; long enough for a busy machine. */
  private static final Duration SHORT_COMMAND_TIMEOUT = Timing.scaled(Duration.ofMillis(300));

  private Deployment deployment;

  /** Starts a deployment on the backend under test. */
  abstract Deployment start(int nodes, Persistence persistence);

  @AfterEach
  void closeDeployment() {
    if (deployment != null) {
      deployment.close();
    }
  }

  @Test
  void start_threeNodes_areIndependentMastersOnDistinctUris() {
    Deployment redis = deploy(3, Persistence.NONE);

    redis.node(0).command("SET", "k", "v0");

    assertThat(redis.size()).isEqualTo(3);
    assertThat(redis.uris())
        .doesNotHaveDuplicates()
        .allMatch(uri -> uri.startsWith("redis://127.0.0.1:"));
    assertThat(redis.nodes()).extracting(Node::index).containsExactly(0, 1, 2);
    assertThat(redis.node(1).command("GET", "k")).isNull();
    assertThat(redis.node(0).command("CONFIG", "GET", "save")).isEqualTo(List.of("save", ""));
  }

  @Test
  void kill_runningNode_refusesCommandsAndStaysRestartable() {
    Node node = deploy(1, Persistence.NONE).node(0);

    node.kill();

    assertThat(node.isRunning()).isFalse();
    assertThatThrownBy(() -> node.command(SHORT_COMMAND_TIMEOUT, "PING"))
        .isInstanceOf(UncheckedIOException.class);
    node.restart();
    assertThat(node.command("PING")).isEqualTo("PONG");
  }

  @Test
  void restart_afterKillWithAofAlways_keepsDataOnSameUri() {
    Node node = deploy(1, Persistence.AOF_ALWAYS).node(0);
    String uri = node.uri();
    node.command("SET", "k", "survives");
    node.kill();

    node.restart();

    assertThat(node.uri()).isEqualTo(uri);
    assertThat(node.command("GET", "k")).isEqualTo("survives");
    assertThat(node.persistence()).isEqualTo(Persistence.AOF_ALWAYS);
  }

  @Test
  void restart_withNoneAfterAof_comesBackEmpty() {
    Node node = deploy(1, Persistence.AOF_ALWAYS).node(0);
    node.command("SET", "k", "v");
    node.command("SAVE"); // also leave an RDB behind: the wipe must remove it too

    node.restart(Persistence.NONE);

    assertThat(node.command("DBSIZE")).isEqualTo(0L);
    assertThat(node.persistence()).isEqualTo(Persistence.NONE);
  }

  @Test
  void restart_switchingFromNoneToAofAlways_persistsLaterWrites() {
    Node node = deploy(1, Persistence.NONE).node(0);
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
  void pause_runningNode_commandsTimeOut() {
    Node node = deploy(1, Persistence.NONE).node(0);

    node.pause();

    assertThat(node.isPaused()).isTrue();
    assertThat(node.isRunning()).isTrue();
    assertThatThrownBy(() -> node.command(SHORT_COMMAND_TIMEOUT, "PING"))
        .isInstanceOf(UncheckedIOException.class)
        .hasRootCauseInstanceOf(SocketTimeoutException.class);
  }

  @Test
  void resume_pausedNode_answersAgainWithDataIntact() {
    Node node = deploy(1, Persistence.NONE).node(0);
    node.command("SET", "k", "v");
    node.pause();

    node.resume();

    assertThat(node.isPaused()).isFalse();
    assertThat(node.command(SHORT_COMMAND_TIMEOUT, "GET", "k")).isEqualTo("v");
  }

  @Test
  void kill_pausedNode_stopsItAndRestartAnswers() {
    Node node = deploy(1, Persistence.AOF_ALWAYS).node(0);
    node.command("SET", "k", "v");
    node.pause();

    node.kill();

    assertThat(node.isRunning()).isFalse();
    assertThat(node.isPaused()).isFalse();
    node.restart();
    assertThat(node.command(SHORT_COMMAND_TIMEOUT, "GET", "k")).isEqualTo("v");
  }

  @Test
  void pause_stoppedNode_throwsIllegalState() {
    Node node = deploy(1, Persistence.NONE).node(0);
    node.kill();

    assertThatThrownBy(node::pause)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("not running");
  }

  @Test
  void heal_killedAndPausedNodes_allAnswerAgain() {
    Deployment redis = deploy(3, Persistence.NONE);
    redis.node(0).kill();
    redis.node(1).pause();

    redis.heal();

    for (Node node : redis.nodes()) {
      assertThat(node.command(SHORT_COMMAND_TIMEOUT, "PING")).isEqualTo("PONG");
    }
  }

  @Test
  void close_calledTwice_isNoOpAndNodesCannotRestart() {
    Deployment redis = deploy(1, Persistence.NONE);
    redis.close();

    redis.close();

    assertThat(redis.node(0).isRunning()).isFalse();
    assertThatThrownBy(() -> redis.node(0).restart())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("cannot restart");
  }

  private Deployment deploy(int nodes, Persistence persistence) {
    deployment = start(nodes, persistence);
    return deployment;
  }
}
