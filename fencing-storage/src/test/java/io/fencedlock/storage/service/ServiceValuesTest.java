package io.fencedlock.storage.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fencedlock.storage.Stats;
import io.fencedlock.storage.WriteResult.Accepted;
import io.fencedlock.storage.WriteResult.Reason;
import io.fencedlock.storage.WriteResult.Rejected;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The service's small values: {@code WriteCounters} and {@link StorageConfig}'s validation. */
final class ServiceValuesTest {

  @Test
  void writeCounters_record_countsEachOutcome() {
    WriteCounters counters = new WriteCounters();
    counters.record(new Accepted(1));
    counters.record(new Accepted(2));
    counters.record(new Rejected(2, Reason.STALE));
    counters.record(new Rejected(2, Reason.ALARM));

    assertThat(counters.snapshot()).isEqualTo(new Stats(2, 1, 1));
  }

  @Test
  void storageConfig_badValues_throwIllegalArgument() {
    assertThatThrownBy(() -> StorageConfig.builder().port(70_000))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> StorageConfig.builder().workerThreads(0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> StorageConfig.builder().jdbcUrl("jdbc:h2:mem:x"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> StorageConfig.builder().build())
        .isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> StorageConfig.builder().queueCapacity(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("queueCapacity");
    assertThatThrownBy(() -> StorageConfig.builder().queueTimeout(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("queueTimeout");
    assertThatThrownBy(() -> StorageConfig.builder().headerTimeout(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("headerTimeout");
    assertThatThrownBy(() -> StorageConfig.builder().bodyTimeout(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bodyTimeout");
    assertThatThrownBy(() -> StorageConfig.builder().idleTimeout(Duration.ofDays(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("idleTimeout");
    assertThatThrownBy(() -> StorageConfig.builder().maxConnections(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxConnections");
    assertThatThrownBy(() -> StorageConfig.builder().meterRegistry(null))
        .isInstanceOf(NullPointerException.class);
  }

  @Test
  void storageConfig_defaults_productionLimits() {
    StorageConfig config = StorageConfig.builder().jdbcUrl("jdbc:sqlite:x.db").build();

    assertThat(config.headerTimeout()).isEqualTo(StorageConfig.DEFAULT_HEADER_TIMEOUT);
    assertThat(config.bodyTimeout()).isEqualTo(StorageConfig.DEFAULT_BODY_TIMEOUT);
    assertThat(config.idleTimeout()).isEqualTo(StorageConfig.DEFAULT_IDLE_TIMEOUT);
    assertThat(config.maxConnections()).isEqualTo(StorageConfig.DEFAULT_MAX_CONNECTIONS);
    assertThat(config.queueTimeout()).isEqualTo(StorageConfig.DEFAULT_QUEUE_TIMEOUT);
    assertThat(config.meterRegistry()).isEmpty();
  }

  @Test
  void storageConfig_queueTimeoutUnset_noLongerThanIdleTimeout() {
    Duration shortIdle = Duration.ofMillis(500);

    assertThat(builder().idleTimeout(shortIdle).build().queueTimeout()).isEqualTo(shortIdle);
    assertThat(builder().idleTimeout(shortIdle).queueTimeout(Duration.ofSeconds(5)).build())
        .extracting(StorageConfig::queueTimeout)
        .isEqualTo(Duration.ofSeconds(5));
  }

  private static StorageConfig.Builder builder() {
    return StorageConfig.builder().jdbcUrl("jdbc:sqlite:x.db");
  }
}
