package io.fencedlock.redlock.driver;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** How a release feed's subscribe reports the nodes' confirmations. */
public final class AnyNode {
  private static final Logger log = LoggerFactory.getLogger(AnyNode.class);

  private AnyNode() {}

  /**
   * Completes once any of {@code perNode} completes normally; fails with the last failure once all
   * have failed (the others are logged at debug). An empty list never completes.
   *
   * @param what what the futures are, for the log ("subscribing to CHANNEL")
   */
  public static CompletableFuture<Void> confirmed(
      List<? extends CompletableFuture<?>> perNode, String what) {
    CompletableFuture<Void> any = new CompletableFuture<>();
    AtomicInteger failures = new AtomicInteger();
    for (CompletableFuture<?> node : perNode) {
      node.whenComplete(
          (ok, failure) -> {
            if (failure == null) {
              any.complete(null);
            } else if (failures.incrementAndGet() == perNode.size()) {
              any.completeExceptionally(failure);
            } else {
              log.debug("{} failed on one node", what, failure);
            }
          });
    }
    return any;
  }
}
