package io.fencedlock.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** When a two-step handoff's take starts: after a deleting reply, and after the release is out. */
final class TakeAfterReleaseTest {
  private final AtomicInteger takes = new AtomicInteger();
  private final TakeAfterRelease replies = new TakeAfterRelease(5, takes::incrementAndGet);

  @Test
  void aNodeThatDeleted_startsTheTake_onceTheReleaseIsOut() {
    replies.sent();
    assertThat(takes).as("the release is out, but no node has deleted yet").hasValue(0);

    replies.onReply(ReplyKind.INTEGER, 1, null);
    assertThat(takes).hasValue(1);

    for (int i = 0; i < 4; i++) {
      replies.onReply(ReplyKind.INTEGER, 1, null);
    }
    assertThat(takes).as("exactly once").hasValue(1);
  }

  @Test
  void aReplyBeforeTheReleaseIsOut_leavesTheTakeToTheReleaser() {
    replies.onReply(ReplyKind.INTEGER, 1, null);
    assertThat(takes).as("the release is not yet written to every connection").hasValue(0);

    replies.sent();
    assertThat(takes).hasValue(1);
  }

  @Test
  void repliesThatDeletedNothing_startTheTakeOnlyAtTheLast() {
    replies.sent();
    for (int i = 0; i < 4; i++) {
      replies.onReply(i % 2 == 0 ? ReplyKind.INTEGER : ReplyKind.ERROR, 0, null);
    }
    assertThat(takes).as("no node deleted the key, and one has not answered").hasValue(0);

    replies.onReply(ReplyKind.INTEGER, 0, null);
    assertThat(takes).as("the last reply: the next client must be answered").hasValue(1);
  }
}
