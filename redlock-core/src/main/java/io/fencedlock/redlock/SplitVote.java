package io.fencedlock.redlock;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Tells whether a failed attempt lost to a split vote: contending clients took different nodes, so
 * none of them got a quorum, and the lock is free once they have all cleaned up. Waiting the full
 * retry delay after such a failure leaves the lock idle for everybody; {@link WaitingAcquire}
 * retries it after a short random backoff instead. Stateless.
 */
final class SplitVote {

  private SplitVote() {}

  /**
   * @param replies every node's settled lock-step reply, in node order
   * @param holders per node, the owner id its refusal named, or null
   * @param quorum how many nodes make a quorum
   * @return true if a quorum of nodes answered (granted or refused, so the cluster is up and a
   *     quick retry cannot spin against a down majority), some refused, and no owner named in a
   *     refusal holds a quorum, or could, even if every node whose answer is unknown (timed out,
   *     failed, not yet answered, uninitialized) were its
   */
  static boolean isSplit(List<NodeReply> replies, List<@Nullable String> holders, int quorum) {
    int answered = 0;
    int unknown = 0;
    Map<String, Integer> heldBy = new HashMap<>();
    for (int node = 0; node < replies.size(); node++) {
      switch (replies.get(node).status()) {
        case GRANTED -> answered++;
        case REFUSED -> {
          answered++;
          String holder = holders.get(node);
          if (holder == null) {
            unknown++; // refused by someone we cannot name: may be a quorum's holder
          } else {
            heldBy.merge(holder, 1, Integer::sum);
          }
        }
        // An uninitialized node forgot what it held: its holder may still have a valid lease
        // counting it, so it is as unknown as a node that did not answer.
        default -> unknown++;
      }
    }
    int unknownNodes = unknown;
    return answered >= quorum
        && !heldBy.isEmpty()
        && heldBy.values().stream().allMatch(held -> held + unknownNodes < quorum);
  }
}
