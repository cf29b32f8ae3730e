package io.fencedlock.redlock;

import java.time.Duration;
import java.util.concurrent.CompletionStage;

/**
 * A lock held on a quorum of nodes for a bounded time, and its fencing token.
 *
 * <p>A lease is a promise with an expiry, not a guarantee: a pause of the holder (GC, page faults,
 * SIGSTOP) longer than {@link #remainingValidity()} lets another client acquire the same resource
 * while this holder still believes it owns it. Pass {@link #fencingToken()} to every resource you
 * modify under the lock and have the resource reject tokens lower than the highest it has seen;
 * that is what keeps the data safe when the lease alone does not.
 *
 * <p>Use it with try-with-resources; {@link #close()} releases it. Thread-safe: extend and release
 * may be called from any thread, and release is idempotent.
 */
public interface Lease extends AutoCloseable {

  /** The resource name this lease locks (without the configured key prefix). */
  String resource();

  /** The random 128-bit owner id stored as the lock key's value, as 32 hex digits. */
  String ownerId();

  /** Whether this lease carries a fencing token (false when fencing is switched off). */
  boolean isFenced();

  /**
   * The fencing token: strictly larger than the token of every lease of the same resource whose
   * acquire completed before this one's began, and unique among all of them.
   *
   * @throws IllegalStateException if the lease has no token ({@link #isFenced()} is false)
   */
  long fencingToken();

  /**
   * The time left before the lease must be assumed lost, by the monotonic clock, with clock drift
   * already subtracted; {@link Duration#ZERO} once it has run out or been released.
   */
  Duration remainingValidity();

  /**
   * Whether {@link #remainingValidity()} is positive: false once the validity ran out, the lease
   * was released, or an extend learned it was lost (see {@link #extend}).
   */
  boolean isValid();

  /**
   * Makes the lock last at least {@code ttl} from now on every node where it is still ours
   * (compare-and-lengthen: a key's expiry is only ever raised, never shortened, and an expired key
   * is never re-created). Succeeds only when a quorum of nodes confirms before the current validity
   * runs out; the validity then becomes the later of the old one and {@code ttl} from the start of
   * this call (minus drift). The token does not change.
   *
   * <p>Whatever the outcome or the order of concurrent extends, the validity this lease reports is
   * never longer than a quorum of nodes still holds the key: a failed or late extend cannot shorten
   * any node's key, because none ever does. If more nodes than a quorum can spare answer that the
   * key is no longer ours, the lease is lost: {@link #isValid()} turns false for good. Each call
   * counts towards {@link RedlockConfig#maxExtensions()}, succeeded or not.
   *
   * @return true if a quorum confirmed in time; false otherwise (the old validity stands, unless a
   *     majority of nodes no longer holds the key)
   * @throws IllegalArgumentException if {@code ttl} is not positive, exceeds the configured maximum
   *     lease TTL, or is not larger than the drift allowance
   * @throws LockExpiredException if the validity had already run out, or the lease was released or
   *     lost
   * @throws IllegalStateException if the configured maximum number of extensions was reached
   */
  boolean extend(Duration ttl);

  /** The asynchronous form of {@link #extend}; the stage fails with the same exceptions. */
  CompletionStage<Boolean> extendAsync(Duration ttl);

  /**
   * Deletes the lock key on every node where it still holds this lease's owner id
   * (compare-and-delete: another owner's key is never touched; fence counters are kept). Returns as
   * soon as a quorum of nodes has deleted it, so another client can take the lock from then on; the
   * deletes on the remaining nodes finish in the background, and {@link Redlock#close()} waits for
   * them. Idempotent; waits at most about two node timeouts (one for a slow node's acquire to
   * settle, one for its delete), three in the case below.
   *
   * <p>A fenced lease that took the lock's lead node, released by a client that met a rival on the
   * lock lately (an acquire of it refused for another owner in the last second), asks the lead node
   * first (unless that node failed lately). If the lead names a waiting client (usually of another
   * {@code Redlock}), this method returns on the lead's reply: the lock is that client's to take,
   * and its lock step deletes this lease's key on the other nodes itself; this client's deletes
   * there follow a node timeout later (at once if its {@code Redlock} closes), in case that client
   * never steps. If the lead names nobody, the other deletes go on its reply: one round trip more
   * than a release of an uncontended lock.
   *
   * <p>If an {@code acquire} of the same {@link Redlock} is waiting for this lock, the release is
   * usually handed to it instead (see {@link RedlockConfig.Builder#maxLocalHandoffs}): each node
   * deletes this lease's key and locks for the waiter in one script, and the release is not
   * announced to other clients. This method then returns once the waiter's attempt has finished, at
   * most about three node timeouts; the lock is by then usually held by the waiter, not free.
   *
   * @return true if the lease was still valid when released, so the work done under it ended inside
   *     its validity; false if it had run out, was lost or already released, or its {@link Redlock}
   *     is closed (then nothing is sent, and the key stays until its TTL)
   * @throws RedlockException if the calling thread is interrupted while it waits (the release goes
   *     on in the background; the interrupt flag is kept)
   */
  boolean release();

  /** The asynchronous form of {@link #release}. */
  CompletionStage<Boolean> releaseAsync();

  /**
   * Keeps the lease alive on the client's own scheduler while work runs (see {@link Renewal}): an
   * extend every fraction of the TTL (the first after that fraction of the shorter of the lease's
   * and the renewal TTL), each counting only inside the current validity and never re-creating a
   * key, bounded by the policy's caps. When a renewal cannot get a quorum to confirm in time, the
   * nodes say the lock is no longer ours, or a cap is reached, the lease is lost: {@link
   * #isValid()} turns false and {@link #lost()} completes, at the latest a node timeout and a
   * twentieth of the TTL last confirmed (the lease's own until a renewal confirms, then the renewal
   * TTL) before the validity runs out (a watchdog sees to it, even with a renewal still in flight),
   * unless this process itself was paused past that point: the loss then says {@link
   * LeaseLoss.Reason#EXPIRED}. A lease too late in its validity for a renewal to finish is lost
   * before this method returns. Renewal stops on release and on loss; closing the client loses the
   * lease ({@link LeaseLoss.Reason#CLIENT_CLOSED}).
   *
   * <p>Renewal narrows the window of a slow holder; it does not close it: a holder paused longer
   * than the remaining validity cannot renew, and only the fencing token keeps its late writes out.
   *
   * @return this lease
   * @throws IllegalStateException if the lease is already kept alive, or its client is closed (the
   *     lease is then lost)
   * @throws LockExpiredException if the lease is no longer valid
   * @throws IllegalArgumentException if the policy's TTL is invalid for this client, or it or the
   *     lease's own TTL leaves no time to renew in (a renewal window closes two node timeouts and a
   *     twentieth of the TTL before the validity does)
   */
  Lease keepAlive(Renewal policy);

  /**
   * Completes with the reason when the lease is lost before its release (renewal failed or hit its
   * cap, an extend learned the lock is no longer ours, or the client was closed while keeping it
   * alive); cancelled when the lease is released without being lost. Dependents run on the client's
   * threads (or the thread that closes the client): do not block in them.
   */
  CompletionStage<LeaseLoss> lost();

  /**
   * Throws unless the lease is still valid: call it right before a side effect. Validity is a
   * promise with an expiry: the fencing token, checked by the resource, is what protects the data
   * if this process pauses after the check.
   *
   * @throws LockExpiredException if the validity ran out, or the lease was released or lost
   */
  void checkValid();

  /**
   * Releases the lease, like {@link #release()}; never throws (an interrupt ends the wait, and
   * stays set).
   */
  @Override
  void close();
}
