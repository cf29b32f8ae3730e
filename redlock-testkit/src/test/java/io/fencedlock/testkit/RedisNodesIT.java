package io.fencedlock.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Starting, configuring and closing groups of real redis-server processes. */
final class RedisNodesIT {

  @Test
  void start_threeNodes_eachAnswersPingOnItsOwnPort() {
    try (RedisNodes redis = RedisNodes.start(3)) {
      assertThat(redis.size()).isEqualTo(3);
      assertThat(redis.nodes()).extracting(RedisNode::port).doesNotHaveDuplicates();
      for (RedisNode node : redis) {
        assertThat(node.command("PING")).isEqualTo("PONG");
        assertThat(node.isRunning()).isTrue();
        assertThat(node.persistence()).isEqualTo(Persistence.NONE);
        assertThat(node.host()).isEqualTo("127.0.0.1");
      }
      assertThat(redis.uris())
          .containsExactly(
              "redis://127.0.0.1:" + redis.node(0).port(),
              "redis://127.0.0.1:" + redis.node(1).port(),
              "redis://127.0.0.1:" + redis.node(2).port());
      assertThat(redis.nodes()).extracting(RedisNode::index).containsExactly(0, 1, 2);
    }
  }

  @Test
  void start_nodes_areIndependentMasters() throws IOException {
    try (RedisNodes redis = RedisNodes.start(2)) {
      redis.node(0).command("SET", "k", "v0");

      assertThat(redis.node(1).command("GET", "k")).isNull();
      assertThat(redis.node(0).command("CONFIG", "GET", "save")).isEqualTo(List.of("save", ""));
      assertThat(redis.node(0).command("CONFIG", "GET", "dir"))
          .isEqualTo(List.of("dir", redis.node(0).dataDir().toRealPath().toString()));
    }
  }

  @Test
  void builder_perNodePersistenceAndConfig_areApplied() {
    try (RedisNodes redis =
        RedisNodes.builder()
            .nodes(3)
            .persistence(Persistence.AOF_EVERYSEC)
            .persistence(2, Persistence.AOF_ALWAYS)
            .config("maxmemory", "12345678")
            .start()) {
      assertThat(redis.nodes())
          .extracting(RedisNode::persistence)
          .containsExactly(
              Persistence.AOF_EVERYSEC, Persistence.AOF_EVERYSEC, Persistence.AOF_ALWAYS);
      assertThat(redis.node(0).command("CONFIG", "GET", "appendfsync"))
          .isEqualTo(List.of("appendfsync", "everysec"));
      assertThat(redis.node(2).command("CONFIG", "GET", "appendfsync"))
          .isEqualTo(List.of("appendfsync", "always"));
      assertThat(redis.node(1).command("CONFIG", "GET", "appendonly"))
          .isEqualTo(List.of("appendonly", "yes"));
      assertThat(redis.node(1).command("CONFIG", "GET", "maxmemory"))
          .isEqualTo(List.of("maxmemory", "12345678"));
    }
  }

  @Test
  void builder_perNodeEnvironment_reachesThatNodeAcrossRestarts() {
    // Redis overwrites /proc/<pid>/environ with its process title, so the variable is one whose
    // effect shows: the bundled binary's jemalloc (prefix je_) reads JE_MALLOC_CONF.
    try (RedisNodes redis =
        RedisNodes.builder().nodes(2).environment(1, "JE_MALLOC_CONF", "narenas:3").start()) {
      org.junit.jupiter.api.Assumptions.assumeTrue(
          String.valueOf(redis.node(1).command("INFO", "memory"))
              .contains("mem_allocator:jemalloc"),
          "needs a redis-server built with jemalloc");
      assertThat(mallocStats(redis.node(1))).contains("opt.narenas: 3");
      assertThat(mallocStats(redis.node(0))).doesNotContain("opt.narenas: 3");

      redis.node(1).restart();

      assertThat(mallocStats(redis.node(1))).contains("opt.narenas: 3");
    }
  }

  private static String mallocStats(RedisNode node) {
    return String.valueOf(node.command("MEMORY", "MALLOC-STATS"));
  }

  @Test
  void node_indexOutOfRange_throwsNamingIndex() {
    try (RedisNodes redis = RedisNodes.start(1)) {
      assertThatThrownBy(() -> redis.node(1))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("index must be in [0, 1) but was 1");
    }
  }

  @Test
  void close_startedNodes_killsEveryProcessAndDeletesDataDirs() {
    RedisNodes redis = RedisNodes.start(3, Persistence.AOF_ALWAYS);
    redis.node(1).pause();
    List<Long> pids = redis.nodes().stream().map(RedisNode::pid).toList();
    List<Path> dirs = redis.nodes().stream().map(RedisNode::dataDir).toList();
    assertThat(dirs).allSatisfy(dir -> assertThat(dir).isDirectory());

    redis.close();

    Processes.awaitAllDead(pids);
    assertThat(dirs).allSatisfy(dir -> assertThat(dir).doesNotExist());
    assertThat(dirs.get(0).getParent()).doesNotExist();
    assertThat(redis.nodes()).noneMatch(RedisNode::isRunning);
  }

  @Test
  void close_calledTwice_isNoOp() {
    RedisNodes redis = RedisNodes.start(1);
    redis.close();

    redis.close();

    assertThat(redis.node(0).isRunning()).isFalse();
    assertThatThrownBy(() -> redis.node(0).restart())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("cannot restart");
  }

  @Test
  void start_invalidOption_throwsWithCommandLineAndLogTailAndLeavesNothing() {
    List<Long> before = Processes.redisChildren();

    assertThatThrownBy(
            () ->
                RedisNodes.builder().nodes(2).config("maxmemory-policy", "no-such-policy").start())
        .isInstanceOf(RedisStartupException.class)
        .hasMessageContaining("exited with code")
        .hasMessageContaining("command: ")
        .hasMessageContaining("--maxmemory-policy no-such-policy")
        .hasMessageContaining("--save \"\"")
        .hasMessageContaining("FATAL CONFIG FILE ERROR");
    Processes.awaitAllDead(
        Processes.redisChildren().stream().filter(pid -> !before.contains(pid)).toList());
  }

  @Test
  void start_portTakenBetweenProbeAndBind_retriesOnAnotherPort() throws IOException {
    try (ServerSocket squatter = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      AtomicInteger handedOut = new AtomicInteger();
      PortSource firstTaken =
          new PortSource() {
            @Override
            public int reserve() {
              return handedOut.getAndIncrement() == 0 ? squatter.getLocalPort() : Ports.reserve();
            }

            @Override
            public void release(int port) {
              Ports.release(port);
            }
          };

      try (RedisNodes redis = RedisNodes.builder().nodes(1).ports(firstTaken).start()) {
        assertThat(handedOut).hasValue(2);
        assertThat(redis.node(0).port()).isNotEqualTo(squatter.getLocalPort());
        assertThat(redis.node(0).command("PING")).isEqualTo("PONG");
        assertThat(Files.readString(redis.node(0).dataDir().resolve("redis.log")))
            .contains("Address already in use");
      }
    }
  }
}
