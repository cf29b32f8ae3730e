package io.fencedlock.redlock;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Finds two configured nodes that are one Redis server, by the {@code run_id} each reports:
 * addresses cannot tell (a server bound to every interface answers on each of them, a port forward
 * or a proxy hides it), and one server counted twice could make a quorum on its own. Nodes that do
 * not answer, or report no {@code run_id}, are not compared. Stateless.
 */
final class SameServerCheck {

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
      ids.add(id.exceptionally(unreachable -> ""));
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
}
