package io.fencedlock.redlock;

import java.util.Objects;

/**
 * One node's answer to one step of a lock operation, for diagnostics.
 *
 * @param node the node's address as {@code host:port} (never its password)
 * @param status what the node answered
 * @param detail a human-readable detail: the remaining TTL of a foreign lock, an error message, or
 *     an empty string
 */
public record NodeOutcome(String node, NodeStatus status, String detail) {

  public NodeOutcome {
    Objects.requireNonNull(node, "node");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(detail, "detail");
  }

  @Override
  public String toString() {
    return detail.isEmpty() ? node + " " + status : node + " " + status + " (" + detail + ")";
  }
}
