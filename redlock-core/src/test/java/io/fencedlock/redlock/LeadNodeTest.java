package io.fencedlock.redlock;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class LeadNodeTest {
  private static final List<String> LABELS =
      List.of("10.0.0.1:6379", "10.0.0.2:6379", "10.0.0.3:6379", "10.0.0.4:6379", "10.0.0.5:6379");

  @Test
  void clientsListingTheNodesInAnotherOrder_pickTheSameNode() {
    List<String> reversed = new ArrayList<>(LABELS);
    java.util.Collections.reverse(reversed);
    for (int i = 0; i < 200; i++) {
      String key = "resource-" + i;
      assertThat(reversed.get(LeadNode.pick(reversed, key)))
          .isEqualTo(LABELS.get(LeadNode.pick(LABELS, key)));
    }
  }

  @Test
  void socketNodes_listedInAnotherOrder_leadIsTheSameServer() {
    // Their drivers' labels are all "null:6379": hashed, the lead was the first node listed.
    List<String> one =
        List.of(
            "redis-socket:///tmp/fencedlock-a.sock",
            "redis-socket:///tmp/fencedlock-b.sock",
            "redis-socket:///tmp/fencedlock-c.sock");
    List<String> other = List.of(one.get(2), one.get(0), one.get(1));
    for (String key : List.of("orders", "invoices", "users", "k")) {
      assertThat(other.get(LeadNode.pick(identities(other), key)))
          .as("lead of %s", key)
          .isEqualTo(one.get(LeadNode.pick(identities(one), key)));
    }
  }

  @Test
  void aHostNameAndItsAddress_sameIdentity() {
    assertThat(LeadNode.identity("redis://localhost:7001"))
        .isEqualTo(LeadNode.identity("redis://127.0.0.1:7001"))
        .isNotEqualTo(LeadNode.identity("redis://127.0.0.1:7002"));
    assertThat(LeadNode.identity("redis://10.0.0.1:6379/2"))
        .isEqualTo(LeadNode.identity("rediss://10.0.0.1:6379"));
  }

  @Test
  void manyKeys_spreadOverEveryNode() {
    Set<Integer> leads = new HashSet<>();
    for (int i = 0; i < 200; i++) {
      leads.add(LeadNode.pick(LABELS, "resource-" + i));
    }
    assertThat(leads).hasSize(LABELS.size());
  }

  @Test
  void aNodeThatFailedAFirstAsk_isPassedOverForASecond() {
    FakeTicker ticker = new FakeTicker();
    LeadNode leads = new LeadNode(LABELS.size(), LABELS::get, ticker);
    int usual = leads.pick("k");

    leads.failed(usual);
    int instead = leads.pick("k");
    ticker.advance(Duration.ofNanos(LeadNode.FAILURE_MEMORY_NANOS - 1));
    int stillInstead = leads.pick("k");
    ticker.advance(Duration.ofNanos(1));

    assertThat(instead).isNotEqualTo(usual);
    assertThat(stillInstead).isEqualTo(instead);
    assertThat(leads.pick("k")).isEqualTo(usual);
  }

  @Test
  void everyNodeFailedLately_theKeysOwnChoiceStands() {
    LeadNode leads = new LeadNode(LABELS.size(), LABELS::get, new FakeTicker());
    int usual = leads.pick("k");
    for (int node = 0; node < LABELS.size(); node++) {
      leads.failed(node);
    }
    assertThat(leads.pick("k")).isEqualTo(usual);
  }

  @Test
  void theQueuesHome_isTheKeysOwnChoice_whateverFailedLately() {
    LeadNode leads = new LeadNode(LABELS.size(), LABELS::get, new FakeTicker());
    int usual = leads.pick("k");
    leads.failed(usual);

    assertThat(leads.pick("k")).isNotEqualTo(usual);
    assertThat(leads.home("k")).isEqualTo(usual);
  }

  private static List<String> identities(List<String> uris) {
    return uris.stream().map(LeadNode::identity).toList();
  }
}
