package io.fencedlock.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

final class QuorumStepTest {
  private static final long NO_WAIT = 0;

  @Test
  void onReply_thirdWantedReplyOfFive_decidesReached() {
    QuorumStep step = new QuorumStep(ReplyKind.STATUS, 3, 5);
    step.onReply(ReplyKind.STATUS, 0, null);
    step.onReply(ReplyKind.NIL, 0, null);
    step.onReply(ReplyKind.STATUS, 0, null);
    assertThat(step.decided()).isFalse();

    step.onReply(ReplyKind.STATUS, 0, null);

    assertThat(step.decided()).isTrue();
    assertThat(step.await(NO_WAIT)).isTrue();
  }

  @Test
  void onReply_thirdOtherReplyOfFive_decidesMissedAtOnce() {
    QuorumStep step = new QuorumStep(ReplyKind.STATUS, 3, 5);
    step.onReply(ReplyKind.NIL, 0, null);
    step.onReply(ReplyKind.ERROR, 0, "ERR first");
    step.onReply(ReplyKind.STATUS, 0, null);
    assertThat(step.decided()).isFalse();

    step.onReply(ReplyKind.NIL, 0, null);

    assertThat(step.await(NO_WAIT)).isFalse();
    assertThat(step.firstError()).isEqualTo("ERR first");
  }

  @Test
  void onReply_stragglersAfterTheDecision_changeNothing() {
    QuorumStep step = new QuorumStep(ReplyKind.INTEGER, 3, 5);
    for (int i = 0; i < 3; i++) {
      step.onReply(ReplyKind.INTEGER, 1, null);
    }

    step.onReply(ReplyKind.ERROR, 0, "ERR late");
    step.onReply(ReplyKind.ERROR, 0, "ERR later");

    assertThat(step.await(NO_WAIT)).isTrue();
    assertThat(step.firstError()).isNull();
  }

  @Test
  void await_undecided_throwsNotGrantedWhenTheTimeRunsOut() {
    QuorumStep step = new QuorumStep(ReplyKind.STATUS, 1, 1);

    assertThatThrownBy(() -> step.await(NO_WAIT))
        .isInstanceOf(NotGrantedException.class)
        .hasMessageContaining("in time");
  }

  @Test
  void await_decidedFromAnotherThread_returnsWithoutWaitingOutItsTimeout()
      throws InterruptedException {
    QuorumStep step = new QuorumStep(ReplyKind.STATUS, 1, 1);
    Thread replier = new Thread(() -> step.onReply(ReplyKind.STATUS, 0, null));
    replier.start();

    assertThat(step.await(Long.MAX_VALUE / 2)).isTrue(); // would hang if the unpark were lost
    replier.join();
  }

  @Test
  void create_quorumLargerThanTheNodes_isRefused() {
    assertThatThrownBy(() -> new QuorumStep(ReplyKind.STATUS, 6, 5))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
