package io.fencedlock.redlock.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Collects the replies of one fan-out and decides as early as possible: it completes as soon
 * as {@code needed} replies are GRANTED, or as soon as that has become impossible. Replies
 * still missing at that moment are reported as PENDING. Thread-safe; replies may arrive on
 * any thread.
 */
final class QuorumRound {

  /**
   * The decision of a round.
   *
   * @param reached whether {@code needed} grants arrived
   * @param replies one reply per participant, in participant order (PENDING if none yet)
   */
  record Result(boolean reached, List<NodeReply> replies) {
    List<NodeReply> granted() {
      return replies.stream().filter(NodeReply::isGranted).toList();
    }
  }

  private final NodeReply[] replies;
  private final int needed;
  private final CompletableFuture<Result> decision = new CompletableFuture<>();
  /** Guarded by {@code this}, like the counters: set once, when the round decides. */
  private boolean decided;
  private int grants;
  private int refusals;

  private QuorumRound(List<Integer> participants, int needed) {
    this.replies = participants.stream().map(NodeReply::pending).toArray(NodeReply[]::new);
    this.needed = needed;
  }

  /**
   * Starts a round over {@code calls}, which must never complete exceptionally.
   *
   * @param participants the node index of each call, in the same order
   */
  static CompletableFuture<Result> decide(
      List<Integer> participants, List<CompletableFuture<NodeReply>> calls, int needed) {
    QuorumRound round = new QuorumRound(participants, needed);
    if (needed > calls.size()) {
      round.decided = true; // not yet shared with any other thread
      round.decision.complete(round.snapshot(false));
    }
    for (int i = 0; i < calls.size(); i++) {
      int slot = i;
      calls.get(i).thenAccept(reply -> round.record(slot, reply));
    }
    return round.decision;
  }

  private void record(int slot, NodeReply reply) {
    Result result;
    synchronized (this) {
      if (decided) {
        return; // decided already; late replies only matter to their own listeners
      }
      replies[slot] = reply;
      if (reply.isGranted()) {
        grants++;
      } else {
        refusals++;
      }
      if (grants >= needed) {
        result = snapshot(true);
      } else if (refusals > replies.length - needed) {
        result = snapshot(false);
      } else {
        return;
      }
      decided = true;
    }
    // Outside the lock: the decision's dependents run in this thread and may block (a caller's
    // callback calling release(), say); holding the lock, they would stall every I/O thread
    // that delivers a late reply to this round, possibly one their own progress needs.
    decision.complete(result);
  }

  private Result snapshot(boolean reached) {
    return new Result(reached, new ArrayList<>(Arrays.asList(replies)));
  }
}
