package io.fencedlock.redlock;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which failed lock steps count as split votes, over 5 nodes (quorum 3). */
final class SplitVoteTest {
  private static final int QUORUM = 3;

  @Test
  void twoRivalsAndUs_eachShortOfAQuorum_isSplit() {
    assertThat(isSplit("a", "a", "b", "granted", "granted")).isTrue();
    assertThat(isSplit("a", "b", "c", "d", "granted")).isTrue();
  }

  @Test
  void oneHolderWithAQuorum_isNotSplit() {
    assertThat(isSplit("a", "a", "a", "granted", "granted")).isFalse();
  }

  @Test
  void holderCouldReachAQuorumWithTheUnknownNodes_isNotSplit() {
    assertThat(isSplit("a", "a", "timeout", "granted", "granted")).isFalse();
    assertThat(isSplit("a", "a", "unnamed", "granted", "granted"))
        .as("a refusal naming nobody")
        .isFalse();
    // The holder's third node restarted empty: its lease may still be valid.
    assertThat(isSplit("a", "a", "uninitialized", "granted", "granted"))
        .as("an uninitialized node")
        .isFalse();
  }

  @Test
  void fewerThanAQuorumAnswered_isNotSplit() {
    // A down majority must not make waiters retry in a tight loop.
    assertThat(isSplit("a", "b", "timeout", "timeout", "timeout")).isFalse();
    assertThat(isSplit("a", "granted", "uninitialized", "uninitialized", "uninitialized"))
        .isFalse();
  }

  @Test
  void noRefusals_isNotSplit() {
    assertThat(isSplit("granted", "granted", "timeout", "timeout", "uninitialized")).isFalse();
  }

  /** One word per node: "granted", "timeout", "uninitialized", "unnamed", or a holder's name. */
  private static boolean isSplit(String... nodes) {
    List<NodeReply> replies = new ArrayList<>();
    List<String> holders = new ArrayList<>();
    for (int i = 0; i < nodes.length; i++) {
      String word = nodes[i];
      NodeStatus status =
          switch (word) {
            case "granted" -> NodeStatus.GRANTED;
            case "timeout" -> NodeStatus.TIMED_OUT;
            case "uninitialized" -> NodeStatus.UNINITIALIZED;
            default -> NodeStatus.REFUSED;
          };
      replies.add(NodeReply.of(i, status, ""));
      holders.add(status == NodeStatus.REFUSED && !word.equals("unnamed") ? word : null);
    }
    assertThat(Arrays.asList(nodes)).hasSize(5);
    return SplitVote.isSplit(replies, holders, QUORUM);
  }
}
