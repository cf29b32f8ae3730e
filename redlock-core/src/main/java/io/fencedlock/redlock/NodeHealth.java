package io.fencedlock.redlock;

import java.util.List;

/**
 * What {@link Redlock#health()} found: each node's answer to one cheap read, and whether enough
 * nodes answered to make a quorum.
 *
 * @param nodes per configured node, in order: {@link NodeStatus#GRANTED} if it answered and takes
 *     part in quorums; {@link NodeStatus#UNINITIALIZED} if it answered but is excluded, having lost
 *     its data (or being part of a new deployment that {@link Redlock#create} could not initialize
 *     because a node did not answer; the first acquire that every node answers initializes it);
 *     {@link NodeStatus#ERROR} (not connected, refused password, with the reason) or {@link
 *     NodeStatus#TIMED_OUT} otherwise
 * @param quorum whether at least {@link RedlockConfig#quorum()} nodes are {@code GRANTED}: without
 *     it, no lock can be acquired
 */
public record NodeHealth(List<NodeOutcome> nodes, boolean quorum) {

  public NodeHealth {
    nodes = List.copyOf(nodes);
  }
}
