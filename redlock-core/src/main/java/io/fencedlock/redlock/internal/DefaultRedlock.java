package io.fencedlock.redlock.internal;

import io.fencedlock.redlock.Lease;
import io.fencedlock.redlock.LockAcquisitionException;
import io.fencedlock.redlock.Redlock;
import io.fencedlock.redlock.RedlockConfig;
import io.fencedlock.redlock.RedlockException;
import java.time.Duration;
import java.util.Optional;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The {@link Redlock} implementation: argument checks, retries, and resource ownership. */
public final class DefaultRedlock implements Redlock {
  private static final Logger log = LoggerFactory.getLogger(DefaultRedlock.class);
  /** The longest maxWait accepted: far beyond any sensible wait, far from overflowing the ticker's arithmetic. */
  static final Duration MAX_WAIT = Duration.ofDays(365);

  private final RedlockConfig config;
  private final LockContext ctx;
  private final ScheduledExecutorService retries;
  private final ReleaseSubscriptions releases;
  private final AtomicBoolean closed = new AtomicBoolean();
  /** The futures of calls that have not completed yet, with their resource; {@link #close()} fails them. */
  private final Map<CompletableFuture<?>, String> pending = new ConcurrentHashMap<>();

  private DefaultRedlock(RedlockConfig config, LockContext ctx, ScheduledExecutorService retries) {
    this.config = config;
    this.ctx = ctx;
    this.retries = retries;
    this.releases = ctx.releases();
  }

  /**
   * See {@link Redlock#create}. Closes everything it opened if it fails, or if the calling
   * thread is interrupted while it waits for the nodes.
   */
  public static DefaultRedlock create(RedlockConfig config) {
    boolean interruptedBefore = Thread.currentThread().isInterrupted();
    Nodes nodes = Nodes.open(config);
    if (interruptedBefore) {
      Thread.currentThread().interrupt(); // Lettuce's start-up clears the flag; it is the caller's
    }
    try {
      nodes.awaitConnections(config.connectTimeout());
      Optional<String> sameServer = awaitQuietly(SameServerCheck.duplicates(nodes, config.connectTimeout()),
          config.connectTimeout(), Optional.empty());
      if (sameServer.isPresent()) {
        throw new IllegalArgumentException("nodes: " + sameServer.get() + "; one server must not count twice");
      }
      awaitQuietly(NodeConfigAudit.warnings(nodes).thenAccept(warnings -> warnings.forEach(log::warn)),
          config.connectTimeout(), null);
      NodeMembership membership = new NodeMembership(nodes, config, System::currentTimeMillis);
      if (config.fencing() && config.nodeInitCheck()) {
        CompletableFuture<Boolean> initialized = membership.initializeIfNew();
        nodes.awaitOnClose(initialized); // a create() that fails meanwhile lets the marker writes finish
        awaitQuietly(initialized, config.connectTimeout(), false);
      }
      if (Thread.currentThread().isInterrupted()) {
        throw new RedlockException("interrupted while connecting to the nodes");
      }
      LockContext ctx = new LockContext(config, nodes, new KeySpace(config.keyPrefix()), new OwnerIds(), membership,
          new TokenHints(TokenHints.DEFAULT_CAPACITY), new ReleaseSubscriptions(nodes));
      ScheduledThreadPoolExecutor retries = new ScheduledThreadPoolExecutor(1, nodes.threads().factory("redlock-retry"));
      retries.setRemoveOnCancelPolicy(true);
      log.info("Redlock over {} nodes (quorum {}), fencing {}", config.nodes().size(), config.quorum(),
          config.fencing() ? "on" : "off");
      return new DefaultRedlock(config, ctx, retries);
    } catch (RuntimeException | Error e) {
      boolean interrupted = Thread.interrupted(); // so that closing can wait for what it must
      try {
        nodes.close();
      } catch (RuntimeException | Error closing) {
        e.addSuppressed(closing);
      } finally {
        if (interrupted) {
          Thread.currentThread().interrupt();
        }
      }
      throw e;
    }
  }

  /**
   * Waits for a start-up check, returning {@code otherwise} if it did not finish in time; an
   * interrupt ends the wait and stays set for the caller to see.
   */
  private static <T> T awaitQuietly(CompletableFuture<T> future, Duration timeout, T otherwise) {
    try {
      return future.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException e) {
      // A start-up check (same servers, settings audit, new-deployment probe) did not finish:
      // the nodes that did not answer are reported by acquires, and nothing is initialized
      // without them.
      log.debug("a start-up check did not complete", e);
    }
    return otherwise;
  }

  @Override
  public RedlockConfig config() {
    return config;
  }

  @Override
  public Optional<Lease> tryAcquire(String resource, Duration ttl) {
    Futures.checkNotInterrupted();
    return Futures.await(tryAcquireAsync(resource, ttl), ctx.callBoundNanos(),
        lease -> lease.ifPresent(Lease::releaseAsync));
  }

  /**
   * The stage is the attempt's own future, not a copy: a caller that cancels (or otherwise
   * completes) it abandons the attempt, and a lease the attempt still gains is released.
   */
  @Override
  public CompletionStage<Optional<Lease>> tryAcquireAsync(String resource, Duration ttl) {
    checkArguments(resource, ttl, Duration.ZERO);
    CompletableFuture<Optional<Lease>> result = track(resource, new CompletableFuture<>());
    AcquireAttempt.run(ctx, resource, ttl, null, (outcome, bug) -> {
      if (bug != null) {
        result.completeExceptionally(bug);
      } else if (outcome instanceof AcquireAttempt.Acquired acquired) {
        if (!result.complete(Optional.of(acquired.lease()))) {
          acquired.lease().releaseAsync(); // the caller gave up meanwhile, or the client closed
        }
      } else {
        result.complete(Optional.empty());
      }
    });
    return result;
  }

  @Override
  public Lease acquire(String resource, Duration ttl, Duration maxWait) {
    Futures.checkNotInterrupted();
    return Futures.await(start(resource, ttl, maxWait), maxWait.toNanos() + ctx.callBoundNanos(), Lease::releaseAsync);
  }

  /** The stage is the acquire's own future: cancelling it abandons the acquire (see {@link #tryAcquireAsync}). */
  @Override
  public CompletionStage<Lease> acquireAsync(String resource, Duration ttl, Duration maxWait) {
    return start(resource, ttl, maxWait);
  }

  private CompletableFuture<Lease> start(String resource, Duration ttl, Duration maxWait) {
    checkArguments(resource, ttl, maxWait);
    WaitingAcquire acquire = new WaitingAcquire(ctx, releases, retries, closed::get,
        (attempts, failed) -> failure(resource, attempts, failed), resource, ttl, maxWait);
    return track(resource, acquire.start());
  }

  /**
   * Registers a call's future so that {@link #close()} can fail it, and fails it at once if the
   * client closed while it was registered (close() may have missed it).
   */
  private <T> CompletableFuture<T> track(String resource, CompletableFuture<T> call) {
    pending.put(call, resource);
    call.whenComplete((value, e) -> pending.remove(call));
    if (closed.get()) {
      call.completeExceptionally(closedWhileWaiting(resource));
    }
    return call;
  }

  private static RedlockException closedWhileWaiting(String resource) {
    return new RedlockException("the acquire of '" + resource + "' was abandoned: its Redlock was closed");
  }

  private LockAcquisitionException failure(String resource, int attempts, AcquireAttempt.Failed failed) {
    LockAcquisitionException e = new LockAcquisitionException(
        resource, attempts, failed.reason(), ctx.nodes().outcomes(failed.replies()));
    failed.replies().stream().map(NodeReply::error).filter(java.util.Objects::nonNull).forEach(e::addSuppressed);
    return e;
  }

  private void checkArguments(String resource, Duration ttl, Duration maxWait) {
    if (closed.get()) {
      throw new IllegalStateException("this Redlock is closed");
    }
    if (resource == null || resource.isBlank()) {
      throw new IllegalArgumentException("resource must not be null or blank");
    }
    ctx.keys().checkResource("resource", resource);
    Validity.checkTtl("ttl", ttl, config.driftFactor(), config.maxLeaseTtl());
    if (maxWait == null || maxWait.isNegative() || maxWait.compareTo(MAX_WAIT) > 0) {
      throw new IllegalArgumentException("maxWait must be between 0 and " + MAX_WAIT.toDays() + " days: " + maxWait);
    }
  }

  /**
   * Fails every pending call first (an attempt still in flight runs to its end, and a lease it
   * gains is released), then waits for the releases and attempts in flight, then closes. Called
   * on one of this client's own threads (from a callback), it cannot wait for that thread:
   * it fails the pending calls at once and finishes closing on a thread of its own.
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    releases.stopHandoffs();
    pending.forEach((call, resource) -> call.completeExceptionally(closedWhileWaiting(resource)));
    if (ctx.nodes().threads().isCurrentThreadOwn()) {
      Thread closing = new Thread(this::closeResources, "redlock-close");
      closing.setDaemon(true);
      closing.start();
    } else {
      closeResources();
    }
  }

  private void closeResources() {
    retries.shutdownNow();
    ctx.nodes().close();
  }
}
