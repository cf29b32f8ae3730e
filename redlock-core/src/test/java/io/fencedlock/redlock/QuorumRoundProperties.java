package io.fencedlock.redlock;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/** The early decision of a quorum round agrees with counting all replies in arrival order. */
final class QuorumRoundProperties {

  @Property
  void decision_anyArrivalOrder_matchesFirstDecisivePrefix(
      @ForAll("statuses") List<NodeStatus> arrivals,
      @ForAll @IntRange(min = 1, max = 9) int needed) {
    int n = arrivals.size();
    List<Integer> participants = IntStream.range(0, n).boxed().toList();
    List<CompletableFuture<NodeReply>> calls = new ArrayList<>();
    participants.forEach(i -> calls.add(new CompletableFuture<>()));

    CompletableFuture<QuorumRound.Result> decision =
        QuorumRound.decide(participants, calls, needed);
    for (int i = 0; i < n; i++) {
      NodeStatus status = arrivals.get(i);
      calls
          .get(i)
          .complete(
              status == NodeStatus.GRANTED ? NodeReply.granted(i, i) : NodeReply.of(i, status, ""));
    }

    Expected expected = expected(arrivals, needed);
    assertThat(decision).isDone();
    QuorumRound.Result result = decision.join();
    assertThat(result.reached()).isEqualTo(expected.reached);
    assertThat(result.replies().stream().filter(r -> r.status() != NodeStatus.NO_REPLY_YET).count())
        .isEqualTo(expected.repliesSeen);
    assertThat(result.granted()).hasSizeLessThanOrEqualTo(needed);
  }

  private record Expected(boolean reached, int repliesSeen) {}

  private static Expected expected(List<NodeStatus> arrivals, int needed) {
    int n = arrivals.size();
    if (needed > n) {
      return new Expected(false, 0);
    }
    int grants = 0;
    int others = 0;
    for (int i = 0; i < n; i++) {
      if (arrivals.get(i) == NodeStatus.GRANTED) {
        grants++;
      } else {
        others++;
      }
      if (grants >= needed) {
        return new Expected(true, i + 1);
      }
      if (others > n - needed) {
        return new Expected(false, i + 1);
      }
    }
    throw new AssertionError("a round over all replies always decides");
  }

  @Provide
  Arbitrary<List<NodeStatus>> statuses() {
    return Arbitraries.of(
            NodeStatus.GRANTED,
            NodeStatus.REFUSED,
            NodeStatus.TIMED_OUT,
            NodeStatus.ERROR,
            NodeStatus.UNINITIALIZED)
        .list()
        .ofMinSize(1)
        .ofMaxSize(9);
  }
}
