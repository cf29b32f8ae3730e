package io.fencedlock.redlock;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencedlock.redlock.lettuce.LettuceNodeDriver;
import io.fencedlock.redlock.resp.RespNodeDriver;
import io.fencedlock.redlock.spi.Environment;
import io.fencedlock.redlock.spi.NodeDriver;
import io.fencedlock.testkit.Persistence;
import io.fencedlock.testkit.RedisNodes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Nodes that cannot be reached or logged into at start-up are never silent: {@code create()} logs
 * each once with its reason, and {@link Redlock#health()} reports them.
 */
final class DegradedNodesIT {
  private static RedisNodes nodes;

  @BeforeAll
  static void startNodes() {
    nodes = RedisNodes.start(5, Persistence.AOF_ALWAYS); // so the settings audit warns of nothing
    nodes.node(4).command("CONFIG", "SET", "requirepass", "s3cret");
  }

  @AfterAll
  static void stopNodes() {
    nodes.close();
  }

  @ParameterizedTest
  @ValueSource(strings = {"resp", "lettuce"})
  void create_badNodesAmongSeven_logsEachOnceWithItsReason_andHealthReportsThem(String driver) {
    // Seven nodes, quorum 4: four good ones, a wrong password, a refused port, an unknown host.
    for (int i = 0; i < 4; i++) {
      nodes.node(i).command("FLUSHALL"); // a new deployment
    }
    List<String> uris = new ArrayList<>(nodes.uris().subList(0, 4));
    String wrongPassword = "127.0.0.1:" + nodes.node(4).port();
    String refused = "127.0.0.1:" + freePort();
    String unknownHost = "no-such-host.invalid:6379";
    uris.add("redis://:wrong@" + wrongPassword);
    uris.add("redis://" + refused);
    uris.add("redis://" + unknownHost);
    RedlockConfig config = Cluster.configFor(uris).build();
    Function<RedlockConfig, NodeDriver> open =
        driver.equals("resp") ? RespNodeDriver::open : LettuceNodeDriver::open;

    try (LogCapture log = new LogCapture();
        Redlock redlock = Redlock.create(config, open.apply(config), Environment.system())) {
      List<String> warnings =
          log.lines("WARN").stream().filter(line -> line.contains("io.fencedlock")).toList();
      assertThat(warnings.stream().filter(line -> line.contains(wrongPassword)))
          .singleElement()
          .asString()
          .containsAnyOf(wrongPasswordReasons(driver));
      assertThat(warnings.stream().filter(line -> line.contains(refused)))
          .singleElement()
          .asString()
          .containsIgnoringCase("refused");
      assertThat(warnings.stream().filter(line -> line.contains(unknownHost)))
          .singleElement()
          .asString()
          .containsIgnoringCase("resolve");
      assertThat(warnings).noneMatch(line -> line.contains("wrong@")); // no password in the log
      for (int i = 0; i < 4; i++) {
        String good = "127.0.0.1:" + nodes.node(i).port();
        assertThat(warnings).noneMatch(line -> line.contains(good));
      }

      // Creation initializes a new deployment only if every node answers: none could lock yet.
      NodeHealth fresh = redlock.health();
      assertThat(fresh.nodes().subList(0, 4))
          .allMatch(outcome -> outcome.status() == NodeStatus.UNINITIALIZED);
      assertThat(fresh.quorum()).isFalse();
      Redlock.create(Cluster.configFor(nodes.uris().subList(0, 4)).build()).close(); // marks them

      NodeHealth health = redlock.health();
      assertThat(health.nodes()).hasSize(7);
      assertThat(health.nodes().subList(0, 4))
          .allMatch(outcome -> outcome.status() == NodeStatus.GRANTED);
      assertThat(health.nodes().subList(4, 7))
          .noneMatch(outcome -> outcome.status() == NodeStatus.GRANTED);
      assertThat(health.nodes().get(4).detail()).containsAnyOf(wrongPasswordReasons(driver));
      assertThat(health.quorum()).isTrue();
      long warned =
          log.lines("WARN").stream().filter(line -> line.contains("io.fencedlock")).count();
      redlock.health();
      assertThat(log.lines("WARN").stream().filter(line -> line.contains("io.fencedlock")))
          .hasSize((int) warned); // a health check logs nothing

      nodes.node(0).kill();
      try {
        NodeHealth lost = redlock.health();
        assertThat(lost.nodes().get(0).status()).isNotEqualTo(NodeStatus.GRANTED);
        assertThat(lost.quorum()).isFalse(); // 3 of 7 answer, quorum 4
      } finally {
        nodes.node(0).restart();
      }
    }
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * What a node with the wrong password is reported with. Lettuce sometimes fails the handshake
   * before the node's WRONGPASS reaches it (seen once in CI: "Unable to connect ...
   * RedisHandshakeHandler not registered"); the RESP driver always has the node's refusal.
   */
  private static String[] wrongPasswordReasons(String driver) {
    return driver.equals("lettuce")
        ? new String[] {"WRONGPASS", "invalid username-password", "Unable to connect"}
        : new String[] {"WRONGPASS", "invalid username-password"};
  }
}
