package io.fencedlock.redlock;

/**
 * Thrown by {@link Redlock#withLock} (and its async form) when the lease was lost while the work
 * ran, and by {@link FencedLock#unlock()} when the lease was lost while the lock was held: the work
 * may have run partly without the lock. Its writes are safe only where a resource checked the
 * fencing token. Its message names each node's outcome of the last failed extend, when there was
 * one. {@link #getCause()} is what the work failed with, if anything (often the interrupt the loss
 * caused).
 */
public class LockLostException extends RedlockException {
  private static final long serialVersionUID = 1L;

  private final transient LeaseLoss loss;

  public LockLostException(String resource, LeaseLoss loss) {
    super(
        "the lease on "
            + ResourceNames.quoted(resource)
            + " was lost while the work ran: "
            + loss.reason()
            + ", "
            + loss.detail()
            + (loss.outcomes().isEmpty() ? "" : " " + loss.outcomes()));
    this.loss = loss;
  }

  /** A loss that also ended the work with {@code cause}. */
  public LockLostException(String resource, LeaseLoss loss, Throwable cause) {
    this(resource, loss);
    initCause(cause);
  }

  /** Why the lease was lost. */
  public LeaseLoss loss() {
    return loss;
  }
}
