package io.fencedlock.testkit;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Validation happens before any process is started, so these need no redis-server. */
final class RedisNodesBuilderTest {

  @Test
  void start_zeroCount_throwsNamingCount() {
    assertThatThrownBy(() -> RedisNodes.start(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("count");
  }

  @Test
  void start_nullPersistence_throwsNamingPersistence() {
    assertThatThrownBy(() -> RedisNodes.start(3, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("persistence");
  }

  @Test
  void nodes_setTwice_throwsIllegalState() {
    RedisNodes.Builder builder = RedisNodes.builder().nodes(3);

    assertThatThrownBy(() -> builder.nodes(5))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("nodes was already set to 3");
  }

  @Test
  void persistence_negativeNodeIndex_throwsNamingNodeIndex() {
    assertThatThrownBy(() -> RedisNodes.builder().persistence(-1, Persistence.NONE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("nodeIndex");
  }

  @Test
  void persistence_sameNodeTwice_throwsIllegalState() {
    RedisNodes.Builder builder = RedisNodes.builder().persistence(1, Persistence.AOF_ALWAYS);

    assertThatThrownBy(() -> builder.persistence(1, Persistence.NONE))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("node 1");
  }

  @Test
  void start_nodeIndexBeyondCount_throwsNamingNodeIndex() {
    RedisNodes.Builder builder =
        RedisNodes.builder().nodes(3).persistence(3, Persistence.AOF_ALWAYS);

    assertThatThrownBy(builder::start)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("nodeIndex 3");
  }

  @Test
  void environment_sameVariableTwice_throwsIllegalState() {
    RedisNodes.Builder builder = RedisNodes.builder().environment(0, "A", "1");

    assertThatThrownBy(() -> builder.environment(0, "A", "2"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("environment A of node 0");
  }

  @Test
  void start_environmentBeyondCount_throwsNamingNodeIndex() {
    RedisNodes.Builder builder = RedisNodes.builder().nodes(2).environment(2, "A", "1");

    assertThatThrownBy(builder::start)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("nodeIndex 2");
  }

  @Test
  void start_withoutNodeCount_throwsIllegalState() {
    assertThatThrownBy(() -> RedisNodes.builder().start())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("nodes(int)");
  }

  @Test
  void config_managedOption_throwsNamingIt() {
    assertThatThrownBy(() -> RedisNodes.builder().config("Port", "6379"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("\"Port\" is managed");
  }

  @Test
  void config_dashedName_throws() {
    assertThatThrownBy(() -> RedisNodes.builder().config("--maxmemory", "1mb"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("name");
  }

  @Test
  void config_nullValue_throwsNamingValue() {
    assertThatThrownBy(() -> RedisNodes.builder().config("maxmemory", null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("value");
  }

  @Test
  void config_sameNameTwice_throwsIllegalState() {
    RedisNodes.Builder builder = RedisNodes.builder().config("maxmemory", "1mb");

    assertThatThrownBy(() -> builder.config("maxmemory", "2mb"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("already set to 1mb");
  }

  @Test
  void startTimeout_zero_throwsNamingTimeout() {
    assertThatThrownBy(() -> RedisNodes.builder().startTimeout(java.time.Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("timeout");
  }
}
