package io.fencedlock.redlock;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

final class QuorumRoundTest {

  @Test
  void decision_dependentWaitsForALateReplyOnAnotherThread_doesNotDeadlock() throws Exception {
    List<Integer> participants = List.of(0, 1, 2, 3, 4);
    List<CompletableFuture<NodeReply>> calls =
        IntStream.range(0, 5).mapToObj(i -> new CompletableFuture<NodeReply>()).toList();
    CompletableFuture<QuorumRound.Result> decision = QuorumRound.decide(participants, calls, 3);
    // Like a caller's callback that calls a blocking release() on an I/O thread: it waits
    // for a reply that another thread has to deliver to this same round first.
    CompletableFuture<Boolean> lateReplyDelivered =
        decision.thenApply(
            result -> {
              Thread other = new Thread(() -> calls.get(3).complete(NodeReply.granted(3, 0)));
              other.start();
              try {
                other.join(TimeUnit.SECONDS.toMillis(5));
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              return !other.isAlive();
            });

    for (int i = 0; i < 3; i++) {
      calls.get(i).complete(NodeReply.granted(i, 0));
    }

    assertThat(lateReplyDelivered.get(10, TimeUnit.SECONDS))
        .as("late reply recorded while a dependent runs")
        .isTrue();
    assertThat(decision.join().granted()).hasSize(3);
  }

  @Test
  void allAnswered_completesAfterTheLastReply_notAtTheDecision() {
    List<Integer> participants = List.of(0, 1, 2, 3, 4);
    List<CompletableFuture<NodeReply>> calls =
        IntStream.range(0, 5).mapToObj(i -> new CompletableFuture<NodeReply>()).toList();
    CompletableFuture<Void> allAnswered = new CompletableFuture<>();
    CompletableFuture<QuorumRound.Result> decision =
        QuorumRound.decide(participants, calls, 3, allAnswered);

    for (int i = 0; i < 3; i++) {
      calls.get(i).complete(NodeReply.granted(i, 0));
    }
    assertThat(decision).isCompleted();
    assertThat(decision.join().replies().get(4).status())
        .isEqualTo(io.fencedlock.redlock.NodeStatus.NO_REPLY_YET);
    assertThat(allAnswered).as("two calls still open").isNotDone();

    calls.get(3).complete(NodeReply.of(3, io.fencedlock.redlock.NodeStatus.REFUSED, "late"));
    assertThat(allAnswered).isNotDone();
    calls.get(4).complete(NodeReply.granted(4, 0));
    assertThat(allAnswered).isCompleted();
    assertThat(decision.join().replies().get(3).status())
        .as("the decision is a snapshot: late replies do not change it")
        .isEqualTo(io.fencedlock.redlock.NodeStatus.NO_REPLY_YET);
  }

  @Test
  void allAnswered_withoutCalls_completesAtOnce() {
    CompletableFuture<Void> allAnswered = new CompletableFuture<>();
    CompletableFuture<QuorumRound.Result> decision =
        QuorumRound.decide(List.of(), List.of(), 1, allAnswered);

    assertThat(allAnswered).isCompleted();
    assertThat(decision.join().reached()).isFalse();
  }
}
