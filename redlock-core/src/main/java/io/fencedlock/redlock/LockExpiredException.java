package io.fencedlock.redlock;

/** Thrown by {@link Lease#extend} when the lease's validity has already run out. */
public class LockExpiredException extends RedlockException {
  private static final long serialVersionUID = 1L;

  public LockExpiredException(String message) {
    super(message);
  }
}
