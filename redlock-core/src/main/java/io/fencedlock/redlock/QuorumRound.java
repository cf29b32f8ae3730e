package io.fencedlock.redlock;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * Collects the replies of one fan-out and decides as early as possible: it completes as soon as
 * {@code needed} replies are GRANTED, or as soon as that has become impossible. Replies still
 * missing at that moment are reported as NO_REPLY_YET. Thread-safe; replies may arrive on any
 * thread.
 */
final class QuorumRound {

  /**
   * The decision of a round.
   *
   * @param reached whether {@code needed} grants arrived
   * @param replies one reply per participant, in participant order (NO_REPLY_YET if none yet)
   */
  record Result(boolean reached, List<NodeReply> replies) {
    List<NodeReply> granted() {
      List<NodeReply> granted = new ArrayList<>(replies.size());
      for (NodeReply reply : replies) { // a loop: this runs on every acquire's hot path
        if (reply.isGranted()) {
          granted.add(reply);
        }
      }
      return granted;
    }
  }

  private final List<Integer> participants;

  /** Per participant, its reply; null while none has arrived. */
  private final @Nullable NodeReply[] replies;

  private final int needed;
  private final CompletableFuture<Result> decision = new CompletableFuture<>();

  /** Guarded by {@code this}, like the counters: set once, when the round decides. */
  private boolean decided;

  private int grants;
  private int refusals;

  /** Completed once every call has been answered, decided or not; null if nobody asked. */
  private final @Nullable CompletableFuture<Void> allAnswered;

  /** Guarded by {@code this}: replies recorded so far, before or after the decision. */
  private int answered;

  private QuorumRound(
      List<Integer> participants, int needed, @Nullable CompletableFuture<Void> allAnswered) {
    this.participants = participants;
    this.replies = new NodeReply[participants.size()];
    this.needed = needed;
    this.allAnswered = allAnswered;
  }

  /**
   * Starts a round over {@code calls}, which must never complete exceptionally.
   *
   * @param participants the node index of each call, in the same order
   */
  static CompletableFuture<Result> decide(
      List<Integer> participants, List<CompletableFuture<NodeReply>> calls, int needed) {
    return decide(participants, calls, needed, null);
  }

  /**
   * The same, and completes {@code allAnswered} (if not null) once every call has completed, after
   * the decision: one listener per call serves both.
   */
  static CompletableFuture<Result> decide(
      List<Integer> participants,
      List<CompletableFuture<NodeReply>> calls,
      int needed,
      @Nullable CompletableFuture<Void> allAnswered) {
    QuorumRound round = new QuorumRound(participants, needed, allAnswered);
    if (needed > calls.size()) {
      round.decided = true; // not yet shared with any other thread
      round.decision.complete(round.snapshot(false));
    }
    if (calls.isEmpty() && allAnswered != null) {
      allAnswered.complete(null);
    }
    for (int i = 0; i < calls.size(); i++) {
      int slot = i;
      calls.get(i).thenAccept(reply -> round.record(slot, reply));
    }
    return round.decision;
  }

  private void record(int slot, NodeReply reply) {
    @Nullable Result result = null;
    boolean last;
    synchronized (this) {
      last = ++answered == replies.length;
      if (!decided) { // once decided, late replies only matter to their own listeners
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
        }
        decided = result != null;
      }
    }
    // Outside the lock: the decision's dependents run in this thread and may block (a caller's
    // callback calling release(), say); holding the lock, they would stall every I/O thread
    // that delivers a late reply to this round, possibly one their own progress needs.
    if (result != null) {
      decision.complete(result);
    }
    if (last && allAnswered != null) {
      allAnswered.complete(null);
    }
  }

  private Result snapshot(boolean reached) {
    List<NodeReply> known = new ArrayList<>(replies.length);
    for (int i = 0; i < replies.length; i++) {
      known.add(replies[i] != null ? replies[i] : NodeReply.pending(participants.get(i)));
    }
    return new Result(reached, known);
  }
}
