package io.fencedlock.sim;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Expiry exactly as Redis has it: a key lives through its last millisecond. */
final class NodeStoreTest {
  private long now = 1000;
  private final NodeStore store = new NodeStore(() -> now);

  @Test
  void setNxPx_lastMillisecond_keyStillThereWithPttlZero() {
    assertThat(store.setNxPx("k", "a", 10)).isTrue();
    now += 10;
    assertThat(store.get("k")).isEqualTo("a");
    assertThat(store.pttl("k")).isZero();
    now += 1;
    assertThat(store.get("k")).isNull();
    assertThat(store.pttl("k")).isEqualTo(-2);
    assertThat(store.setNxPx("k", "b", 10)).isTrue();
  }

  @Test
  void pexpire_setsFromNow_andPersistentKeysReportMinusOne() {
    store.setNxPx("k", "a", 10);
    now += 5;
    store.pexpire("k", 3);
    assertThat(store.pttl("k")).isEqualTo(3);
    store.set("f", "7");
    assertThat(store.pttl("f")).isEqualTo(-1);
    assertThat(store.pttl("missing")).isEqualTo(-2);
  }

  @Test
  void peek_expiredKey_doesNotRemoveIt() {
    store.setNxPx("k", "a", 1);
    now += 5;
    assertThat(store.peek("k")).isNotNull();
    assertThat(store.liveKeys()).isEmpty();
    assertThat(store.get("k")).isNull();
    assertThat(store.peek("k")).isNull();
  }
}
