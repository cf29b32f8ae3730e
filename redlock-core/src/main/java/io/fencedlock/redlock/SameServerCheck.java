package io.fencedlock.redlock;

import io.fencedlock.redlock.spi.NodeFailures;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds two configured nodes that are one Redis server, by the {@code run_id} each reports:
 * addresses cannot tell (a server bound to every interface answers on each of them, a port forward
 * or a proxy hides it), and one server counted twice could make a quorum on its own. Nodes that do
 * not answer, or report no {@code run_id}, are not compared. This is the first request to each node
 * at start-up, so a node that does not answer it (not reachable, a refused password, no reply
 * within the connect timeout) is logged here, once, with the reason: every such node weakens every
 * quorum. Stateless.
 */
final class SameServerCheck {
  private static final Logger log = LoggerFactory.getLogger(SameServerCheck.class);

  private SameServerCheck() {}

  /** Completes with a description of the first pair found, or empty; never fails. */
  static CompletableFuture<Optional<String>> duplicates(Nodes nodes) {
    List<CompletableFuture<String>> ids = new ArrayList<>();
    for (int i = 0; i < nodes.size(); i++) {
      int node = i;
      CompletableFuture<String> id;
      try {
        id = nodes.driver().serverId(node);
      } catch (RuntimeException e) {
        id = CompletableFuture.failedFuture(e);
      }
      ids.add(id.exceptionally(unreachable -> warnUnreachable(nodes, node, unreachable)));
    }
    return CompletableFuture.allOf(ids.toArray(CompletableFuture[]::new))
        .thenApply(
            done -> {
              Map<String, Integer> firstWith = new HashMap<>();
              for (int i = 0; i < ids.size(); i++) {
                String id = ids.get(i).join();
                if (id.isEmpty()) {
                  continue;
                }
                Integer earlier = firstWith.putIfAbsent(id, i);
                if (earlier != null) {
                  return Optional.of(
                      "nodes["
                          + i
                          + "] ("
                          + nodes.label(i)
                          + ") and nodes["
                          + earlier
                          + "] ("
                          + nodes.label(earlier)
                          + ") are one Redis server (run_id "
                          + id
                          + ")");
                }
              }
              return Optional.empty();
            });
  }

  private static String warnUnreachable(Nodes nodes, int node, Throwable failure) {
    Throwable cause = NodeFailures.unwrap(failure);
    log.warn(
        "Redis node {} did not answer at start-up (until it does, locks need a quorum of the other"
            + " nodes): {}",
        nodes.label(node),
        cause instanceof TimeoutException ? "no reply in time" : NodeFailures.describe(cause));
    return "";
  }
}
