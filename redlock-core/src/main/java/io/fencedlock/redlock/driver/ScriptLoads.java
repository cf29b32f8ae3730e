package io.fencedlock.redlock.driver;

import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether one node has refused {@code SCRIPT LOAD} (an ACL without {@code SCRIPT}, or a proxy that
 * passes {@code EVAL} and {@code EVALSHA} but not {@code SCRIPT}), so that its driver sends it
 * every script as {@code EVAL}, with its source. There an {@code EVALSHA} of a script no call has
 * run by {@code EVAL} yet only ever answers NOSCRIPT, and a lock step is never sent a second time
 * ({@link LuaScript#isLockStep}): it would fail on that node at every attempt, forever. Sent as
 * {@code EVAL} from the start, a lock step is still sent once.
 *
 * <p>Once refused, always refused: a node whose ACL later allows loads only costs more bytes per
 * call. A refusal that says the node is not ready yet (loading its data, or busy running a script)
 * is no refusal of loads. Thread-safe.
 */
public final class ScriptLoads {
  private static final Logger log = LoggerFactory.getLogger(ScriptLoads.class);

  private final String node;
  private final AtomicBoolean refused = new AtomicBoolean();

  /**
   * @param node the node's label, for the warning
   */
  public ScriptLoads(String node) {
    this.node = node;
  }

  /** Whether the node refused a load: scripts are then sent to it as {@code EVAL}. */
  public boolean refused() {
    return refused.get();
  }

  /**
   * Records the node's error reply to a {@code SCRIPT LOAD}; warns the first time it refuses.
   *
   * @param error the error reply's text, such as {@code NOPERM ...}
   */
  public void refusedWith(String error) {
    if (error.startsWith("LOADING") || error.startsWith("BUSY")) {
      return; // the node is not ready yet, and refuses other commands as well
    }
    if (refused.compareAndSet(false, true)) {
      log.warn(
          "Redis node {} refused SCRIPT LOAD ({}): this client sends it every script by EVAL,"
              + " with the script's text, instead of by EVALSHA",
          node,
          error);
    }
  }
}
