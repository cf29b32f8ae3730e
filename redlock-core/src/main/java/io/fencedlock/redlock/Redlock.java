package io.fencedlock.redlock;

import io.fencedlock.redlock.lettuce.LettuceNodeDriver;
import io.fencedlock.redlock.resp.RespNodeDriver;
import io.fencedlock.redlock.spi.Environment;
import io.fencedlock.redlock.spi.NodeDriver;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * A distributed lock held by a majority of 2f+1 independent Redis masters, whose leases carry
 * monotonic fencing tokens.
 *
 * <p>Usage:
 *
 * <pre>{@code
 * RedlockConfig config = RedlockConfig.builder()
 *     .nodes("redis://10.0.0.1:6379", "redis://10.0.0.2:6379", "redis://10.0.0.3:6379")
 *     .build();
 * try (Redlock redlock = Redlock.create(config);
 *      Lease lease = redlock.acquire("orders:42", Duration.ofSeconds(10), Duration.ofSeconds(2))) {
 *   storage.write("orders:42", value, lease.fencingToken(), lease.ownerId());
 * }
 * }</pre>
 *
 * <h2>How an acquire works</h2>
 *
 * Phase 1 asks every node in parallel to {@code SET key owner NX PX ttl} and to return its fence
 * counter for the resource; it goes on as soon as a quorum has granted and gives up as soon as a
 * quorum is impossible. The token is one more than the largest counter read. Phase 2 writes the
 * token back on the granting nodes, only where the lock is still ours, and the lease exists only
 * once a quorum has confirmed. If anything fails, every node is asked to release, including those
 * that did not answer. When this client can predict the token, phase 1 proposes it and writes it in
 * the same step, and phase 2 is skipped ({@link RedlockConfig.Builder#tokenPrediction}).
 *
 * <p>An {@code acquire} that finds the lock held waits: it subscribes to the lock's release
 * announcements and tries again when a quorum of nodes has announced one, or after the retry delay.
 * A lease of the same client released while it waits passes the lock to it directly, in one round
 * trip ({@link RedlockConfig.Builder#maxLocalHandoffs}).
 *
 * <h2>Assumptions and Guarantees</h2>
 *
 * <ul>
 *   <li><b>Tokens</b> are unique per resource, and strictly larger for a lease whose acquire began
 *       after another's completed. This uses no clock at all; it holds under any pause, delay or
 *       clock step, and with at most f nodes down or cut off. It needs every node to keep its data
 *       across restarts ({@code appendonly yes} with {@code appendfsync always}), or, failing that,
 *       to come back empty and be detected: a node without its initialization marker is excluded
 *       from quorums until {@link RedlockConfig#maxLeaseTtl()} has passed, and then re-admitted
 *       with counters above every token issued.
 *   <li><b>Mutual exclusion</b> holds only while the lease is valid and only if the holder's
 *       pauses, network delays and the drift between clocks stay within the drift allowance ({@code
 *       ttl * driftFactor + 2 ms}). Redis expires keys by its wall clock, so a clock step forward
 *       on a node can end a lease early. Lease arithmetic on this side uses only the {@link
 *       Ticker}, never the wall clock.
 *   <li><b>Safety of your data</b> therefore comes from the fencing token checked by the resource,
 *       not from the lease. Without such a check, a paused holder can overwrite a newer holder's
 *       work.
 *   <li>The nodes must be independent masters: replicas promoted by Sentinel or Cluster failover
 *       can lose acknowledged locks and counters. Eviction ({@code maxmemory-policy} other than
 *       {@code noeviction}) and {@code FLUSHALL} break both guarantees.
 * </ul>
 *
 * <p>Implementations are thread-safe: one instance serves any number of threads and resources. An
 * instance owns its connections; {@link #close()} closes them.
 *
 * <p>The stages returned by the asynchronous methods (and {@link Lease#lost()}) complete on the
 * thread that decides them, usually one of the client's: an I/O thread (a reply; on the default
 * driver a node timeout too), the Lettuce driver's request-timer thread (a node timeout) or the
 * client's scheduler thread (a retry, a renewal's loss deadline); dependents attached without an
 * executor run there. Do not block in them (call {@link Lease#releaseAsync()} rather than {@link
 * Lease#release()} there), or attach them with an executor ({@code thenAcceptAsync(action,
 * executor)}): while one blocks, everything that thread does for this client waits. On an I/O
 * thread that is every reply it reads (the default driver reads every node's on one thread, Lettuce
 * splits the nodes between two), so this client's calls and renewals stall, and a lease kept alive
 * is lost if no renewal was confirmed by its loss deadline. The default driver then reads the
 * replies that arrived meanwhile before it declares any node timeout; on Lettuce, whose request
 * timer has a thread of its own, requests whose replies wait behind a blocked I/O thread time out
 * as if their nodes had not answered. On the request-timer thread it is every node timeout, on the
 * scheduler thread every retry, renewal and loss deadline of this client. The work of {@link
 * #withLockAsync} never runs on these threads.
 */
public interface Redlock extends AutoCloseable {

  /**
   * Creates a client for the configured nodes. Waits at most {@link RedlockConfig#connectTimeout()}
   * for the first connections; nodes that are down, reject the password or answer garbage do not
   * prevent creation: each is logged once at WARN with the reason, and shows up in per-node
   * outcomes and in {@link #health()}.
   *
   * @throws RedlockException if the calling thread is interrupted meanwhile (the interrupt flag is
   *     kept); whenever this method throws, it has closed everything it opened
   */
  static Redlock create(RedlockConfig config) {
    NodeDriver driver =
        RespNodeDriver.supports(config)
            ? RespNodeDriver.open(config)
            : LettuceNodeDriver.open(config); // TLS, Unix sockets or Sentinel
    return create(config, driver, Environment.system());
  }

  /**
   * Creates a client that runs this library's algorithm over another node driver and environment:
   * simulated nodes and time, say, or the Lettuce driver with non-default options. The client owns
   * both: closing it closes the driver and shuts the environment's scheduler down, and so does a
   * failure here. {@code config.nodes()} names the driver's nodes (it must have as many); the
   * config's timeouts are the ones the driver should apply.
   *
   * @throws IllegalArgumentException if the driver's node count differs from the configuration's,
   *     or two nodes report the same server
   * @throws RedlockException if the calling thread is interrupted meanwhile (the flag is kept)
   */
  static Redlock create(RedlockConfig config, NodeDriver driver, Environment environment) {
    return DefaultRedlock.create(config, driver, environment);
  }

  /**
   * Makes one attempt to acquire the lock.
   *
   * @return the lease, or empty if no quorum granted it (held by someone else, or nodes down)
   * @throws IllegalArgumentException if {@code resource} is blank or reserved (see {@link
   *     #acquire}), or the TTL is invalid (not larger than the drift allowance, or above the
   *     maximum lease TTL)
   * @throws RedlockException if the calling thread is interrupted (the attempt is abandoned, a
   *     lease it still gains is released, and the interrupt flag is kept)
   */
  Optional<Lease> tryAcquire(String resource, Duration ttl);

  /**
   * Tries to acquire the lock, retrying until {@code maxWait} has passed: after {@link
   * RedlockConfig#retryDelay()} plus random jitter, or sooner when the lock's release is announced,
   * when a lease of this client hands it over, or when the attempt lost to a split vote (rivals
   * took different nodes and none a quorum; it then retries after a short random backoff). A {@code
   * maxWait} of zero makes one attempt.
   *
   * @throws LockAcquisitionException if no attempt succeeded; carries each node's outcome
   * @throws IllegalArgumentException if {@code resource} is blank or reserved, the TTL is invalid
   *     or {@code maxWait} is negative or above 365 days. Resource names are the lock keys on the
   *     wire (after the configured prefix); three shapes are reserved because they would share a
   *     key with another resource or with the node: keys starting with {@code redlock:node-}, keys
   *     that are a whole hash tag such as {@code {user42}}, and keys that are another resource's
   *     fence key, such as {@code {a}:fence}
   * @throws RedlockException if the calling thread is interrupted (the acquire is abandoned, a
   *     lease its attempt still gains is released, and the interrupt flag is kept), or this client
   *     is closed meanwhile
   */
  Lease acquire(String resource, Duration ttl, Duration maxWait);

  /**
   * The asynchronous form of {@link #acquire}: the stage completes with the lease or fails with
   * {@link LockAcquisitionException} (or {@link RedlockException} if this client is closed
   * meanwhile). Argument errors are thrown at once. Cancelling the stage (through {@code
   * toCompletableFuture().cancel(..)}, or completing it any other way) abandons the acquire: no
   * further attempt starts, and a lease an attempt in flight still gains is released.
   */
  CompletionStage<Lease> acquireAsync(String resource, Duration ttl, Duration maxWait);

  /**
   * The asynchronous form of {@link #tryAcquire}. Cancelling the stage abandons the attempt: a
   * lease it still gains is released.
   */
  CompletionStage<Optional<Lease>> tryAcquireAsync(String resource, Duration ttl);

  /**
   * Runs {@code work} under the lock of {@code resource}: acquires it (waiting at most {@link
   * LockOptions#maxWait()}), keeps the lease alive while the work runs ({@link Lease#keepAlive}),
   * passes the lease (and so its token) to the work, always releases, and passes on what the work
   * throws. If the lease is lost meanwhile, the working thread is interrupted (unless {@link
   * LockOptions#interruptOnLoss()} is off; an interrupt this method caused is cleared before it
   * returns), and once the work is over, {@link LockLostException} is thrown: with what the work
   * threw, if anything (as the interrupt's {@link InterruptedException}), as its cause, so that
   * {@code catch (LockLostException e)} sees every loss. Only an {@link Error} of the work is
   * passed on as itself, with the {@link LockLostException} suppressed. An {@link
   * InterruptedException} from an interrupt of the caller's own, not of the loss, leaves the
   * interrupt flag set.
   *
   * @throws LockAcquisitionException if the lock was not acquired in time (the work did not run)
   * @throws LockLostException if the lease was lost while the work ran, whatever the work threw
   * @throws E what the work throws, if the lease was not lost
   */
  default <T, E extends Exception> T withLock(
      String resource, LockOptions options, LeasedWork<T, E> work) throws E {
    return LockedWork.run(this, resource, options, work);
  }

  /**
   * The asynchronous form of {@link #withLock}: the work returns a stage; the lease is released
   * once it completes; a lost lease cancels it (unless {@link LockOptions#interruptOnLoss()} is
   * off) and fails the result with {@link LockLostException} (with the work's own failure, if any,
   * as its cause, as in {@link #withLock}). The lease is kept alive from its grant on. The work is
   * called on a thread the client keeps for such work (one per work running, never an I/O or timer
   * thread), so a work that blocks holds up itself only; the returned stage completes like the
   * others (see above). Cancelling it before the work was called releases the lease and the work is
   * not called.
   */
  default <T> CompletionStage<T> withLockAsync(
      String resource,
      LockOptions options,
      java.util.function.Function<Lease, ? extends CompletionStage<T>> work) {
    return LockedWork.runAsync(
        this, resource, options, work, java.util.concurrent.ForkJoinPool.commonPool());
  }

  /**
   * A {@link java.util.concurrent.locks.Lock} for one resource, backed by this client (see {@link
   * FencedLock}).
   */
  default FencedLock newLock(String resource, LockOptions options) {
    return new FencedLock(this, resource, options);
  }

  /**
   * Locks several resources at once, all or nothing: on every node one script takes all of their
   * locks or none, and the lease exists only if a quorum of nodes took all of them. Each resource
   * gets its own fencing token, with the guarantees of {@link Lease#fencingToken()}. Retries (after
   * the retry delay plus jitter) until {@code maxWait}; it does not wait for release announcements
   * or take local handoffs, and always takes two round trips. The keys of different resources need
   * no common hash tag on independent masters; on a Redis Cluster node they would all have to hash
   * to one slot, which this library does not arrange.
   *
   * @throws LockAcquisitionException if no attempt took every lock on a quorum in time
   * @throws IllegalArgumentException if {@code resources} is empty, has duplicates or a reserved or
   *     blank name, or the TTL or maxWait is invalid
   * @throws IllegalStateException if fencing is switched off (tokens are what this returns)
   */
  MultiLease acquireAll(java.util.Collection<String> resources, Duration ttl, Duration maxWait);

  /** The configuration this client was created with. */
  RedlockConfig config();

  /**
   * Asks every node for one cheap read (its membership marker: one {@code MGET} of two small keys,
   * bounded by {@link RedlockConfig#nodeTimeout()}), for a health check: which nodes answer, why
   * the others do not (not connected, refused password, no reply in time), and whether a quorum
   * answers. Logs nothing and changes nothing, so it may be called often. Blocks for at most about
   * the node timeout.
   *
   * @throws RedlockException if the calling thread is interrupted (the flag is kept)
   */
  NodeHealth health();

  /**
   * Closes every connection and thread this client owns. First every acquire still waiting fails
   * with a {@link RedlockException}; then closing waits for the attempts still in flight (a lease
   * one of them gains is released), the deletes of recent releases still on their way to slower
   * nodes, and local handoffs in flight, each bounded by node timeouts, so closing does not leave
   * lock keys behind. Releases made while or after closing are not handed off. Every lease this
   * client keeps alive is lost ({@link LeaseLoss.Reason#CLIENT_CLOSED}), so {@link #withLock}
   * interrupts its work (and {@link #withLockAsync} cancels it); such a lease is not released by
   * closing. Idempotent.
   */
  @Override
  void close();

  /**
   * Closes like {@link #close()}, without blocking the caller: the stage completes once everything
   * is closed. Idempotent; every call returns a stage of the same closing.
   */
  CompletionStage<Void> closeAsync();
}
