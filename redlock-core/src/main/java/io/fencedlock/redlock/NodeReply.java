package io.fencedlock.redlock;

import org.jspecify.annotations.Nullable;

/**
 * One node's answer to one request, already classified.
 *
 * @param node the node's index in the configuration
 * @param status the classification
 * @param value the parsed payload (a fence counter, for example), or 0
 * @param detail a human-readable detail for diagnostics
 * @param error the failure behind an ERROR or TIMED_OUT status, if any
 */
record NodeReply(
    int node, NodeStatus status, long value, String detail, @Nullable Throwable error) {

  static NodeReply granted(int node, long value) {
    return new NodeReply(node, NodeStatus.GRANTED, value, "", null);
  }

  static NodeReply of(int node, NodeStatus status, String detail) {
    return new NodeReply(node, status, 0, detail, null);
  }

  static NodeReply pending(int node) {
    return of(node, NodeStatus.NO_REPLY_YET, "");
  }

  /** The detail of {@link #notAsked}. */
  static final String NOT_ASKED = "not asked: the node asked first refused";

  /**
   * A node a contended attempt did not ask, because the node it asked first refused ({@code
   * AcquireAttempt}): NO_REPLY_YET, and it took nothing.
   */
  static NodeReply notAsked(int node) {
    return of(node, NodeStatus.NO_REPLY_YET, NOT_ASKED);
  }

  boolean wasNotAsked() {
    return status == NodeStatus.NO_REPLY_YET && NOT_ASKED.equals(detail);
  }

  boolean isGranted() {
    return status == NodeStatus.GRANTED;
  }

  /**
   * Whether this phase-1 reply proves the request left nothing on the node: UNINITIALIZED always
   * (the script refuses before locking), a node never asked always, REFUSED only if {@code
   * refusalsProveAbsence} (see {@code Nodes.deleteEverywhere}).
   */
  boolean tookNothing(boolean refusalsProveAbsence) {
    return status == NodeStatus.UNINITIALIZED
        || wasNotAsked()
        || (refusalsProveAbsence && status == NodeStatus.REFUSED);
  }

  NodeOutcome toOutcome(String nodeLabel) {
    return new NodeOutcome(nodeLabel, status, detail);
  }
}
