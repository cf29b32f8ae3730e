package io.fencedlock.redlock.internal;

import io.fencedlock.redlock.Lease;
import io.fencedlock.redlock.LockAcquisitionException;
import io.fencedlock.redlock.Redlock;
import io.fencedlock.redlock.RedlockConfig;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The {@link Redlock} implementation: argument checks, retries, and resource ownership. */
public final class DefaultRedlock implements Redlock {
  private static final Logger log = LoggerFactory.getLogger(DefaultRedlock.class);

  private final RedlockConfig config;
  private final LockContext ctx;
  private final ScheduledExecutorService retries;
  private final ReleaseSubscriptions releases;
  private final AtomicBoolean closed = new AtomicBoolean();

  private DefaultRedlock(RedlockConfig config, LockContext ctx, ScheduledExecutorService retries) {
    this.config = config;
    this.ctx = ctx;
    this.retries = retries;
    this.releases = ctx.releases();
  }

  /** See {@link Redlock#create}. */
  public static DefaultRedlock create(RedlockConfig config) {
    Nodes nodes = Nodes.open(config);
    nodes.awaitConnections(config.connectTimeout());
    awaitQuietly(NodeConfigAudit.warnings(nodes).thenAccept(warnings -> warnings.forEach(log::warn)),
        config.connectTimeout());
    NodeMembership membership = new NodeMembership(nodes, config, System::currentTimeMillis);
    if (config.fencing() && config.nodeInitCheck()) {
      awaitQuietly(membership.initializeIfNew(), config.connectTimeout());
    }
    LockContext ctx = new LockContext(config, nodes, new KeySpace(config.keyPrefix()), new OwnerIds(), membership,
        new TokenHints(TokenHints.DEFAULT_CAPACITY), new ReleaseSubscriptions(nodes));
    ScheduledThreadPoolExecutor retries = new ScheduledThreadPoolExecutor(1, runnable -> {
      Thread thread = new Thread(runnable, "redlock-retry");
      thread.setDaemon(true);
      return thread;
    });
    retries.setRemoveOnCancelPolicy(true);
    log.info("Redlock over {} nodes (quorum {}), fencing {}", config.nodes().size(), config.quorum(),
        config.fencing() ? "on" : "off");
    return new DefaultRedlock(config, ctx, retries);
  }

  private static void awaitQuietly(CompletableFuture<?> future, Duration timeout) {
    try {
      future.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      // A start-up check (settings audit, new-deployment probe) did not finish: the nodes that
      // did not answer are reported by acquires, and nothing is initialized without them.
      log.debug("a start-up check did not complete", e);
    }
  }

  @Override
  public RedlockConfig config() {
    return config;
  }

  @Override
  public Optional<Lease> tryAcquire(String resource, Duration ttl) {
    return Futures.await(tryAcquireAsync(resource, ttl));
  }

  @Override
  public CompletionStage<Optional<Lease>> tryAcquireAsync(String resource, Duration ttl) {
    checkArguments(resource, ttl, Duration.ZERO);
    return AcquireAttempt.run(ctx, resource, ttl)
        .thenApply(r -> r instanceof AcquireAttempt.Acquired a ? Optional.<Lease>of(a.lease()) : Optional.<Lease>empty())
        .minimalCompletionStage();
  }

  @Override
  public Lease acquire(String resource, Duration ttl, Duration maxWait) {
    return Futures.await(start(resource, ttl, maxWait));
  }

  @Override
  public CompletionStage<Lease> acquireAsync(String resource, Duration ttl, Duration maxWait) {
    return start(resource, ttl, maxWait).minimalCompletionStage();
  }

  private CompletableFuture<Lease> start(String resource, Duration ttl, Duration maxWait) {
    checkArguments(resource, ttl, maxWait);
    return new WaitingAcquire(ctx, releases, retries, closed::get,
        (attempts, failed) -> failure(resource, attempts, failed), resource, ttl, maxWait).start();
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
    Validity.checkTtl("ttl", ttl, config.driftFactor(), config.maxLeaseTtl());
    if (maxWait == null || maxWait.isNegative()) {
      throw new IllegalArgumentException("maxWait must not be null or negative: " + maxWait);
    }
  }

  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      releases.stopHandoffs();
      retries.shutdownNow();
      ctx.nodes().close();
    }
  }
}
