package io.fencedlock.redlock;

import io.fencedlock.redlock.spi.Environment;
import io.fencedlock.redlock.spi.NodeDriver;
import io.fencedlock.redlock.spi.Regression;
import io.fencedlock.redlock.spi.Scheduler;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The {@link Redlock} implementation: argument checks, retries, and resource ownership. */
final class DefaultRedlock implements Redlock {
  private static final Logger log = LoggerFactory.getLogger(DefaultRedlock.class);

  /** What closing may take beyond its wait for work in flight: closing the connections. */
  private static final long CLOSE_MARGIN_NANOS = TimeUnit.SECONDS.toNanos(5);

  /**
   * The longest maxWait accepted: far beyond any sensible wait, far from overflowing the ticker's
   * arithmetic.
   */
  static final Duration MAX_WAIT = Duration.ofDays(365);

  private final RedlockConfig config;
  private final LockContext ctx;
  private final Scheduler timers;
  private final ReleaseWaiters releases;
  private final AtomicBoolean closed;

  /**
   * The calls that have not completed yet, by a sequence number (so that closing fails them in the
   * same order in every run of the deterministic simulator); {@link #close()} fails them.
   */
  private final Map<Long, PendingCall> pending = new ConcurrentHashMap<>();

  private final AtomicLong calls = new AtomicLong();

  private record PendingCall(String resource, CompletableFuture<?> future) {}

  /** Completes once {@link #closeAsync()} has finished closing. */
  private final CompletableFuture<Void> closedDown = new CompletableFuture<>();

  /**
   * The thread that is losing the kept-alive leases in {@link #closeAsync()}: their loss callbacks
   * run on it, and a {@link #close()} from one of them must not wait for the closing it is inside.
   */
  private volatile @Nullable Thread losingLeases;

  private DefaultRedlock(RedlockConfig config, LockContext ctx) {
    this.config = config;
    this.ctx = ctx;
    this.timers = ctx.env().scheduler();
    this.releases = ctx.releases();
    this.closed = ctx.closed();
  }

  /**
   * See {@link Redlock#create(RedlockConfig, NodeDriver, Environment)}. Closes the driver and the
   * environment's scheduler if it fails, or if the calling thread is interrupted while it waits for
   * the nodes.
   */
  static DefaultRedlock create(RedlockConfig config, NodeDriver driver, Environment env) {
    if (driver.size() != config.nodes().size()) {
      closeQuietly(driver, env);
      throw new IllegalArgumentException(
          "the driver has " + driver.size() + " nodes, the configuration " + config.nodes().size());
    }
    Nodes nodes = new Nodes(driver, config);
    try {
      driver.connect(config.connectTimeout());
      Optional<String> sameServer =
          awaitQuietly(
              SameServerCheck.duplicates(nodes), config.connectTimeout(), Optional.empty());
      if (sameServer.isPresent()) {
        throw new IllegalArgumentException(
            "nodes: " + sameServer.get() + "; one server must not count twice");
      }
      awaitQuietly(
          driver.settingsWarnings().thenAccept(warnings -> warnings.forEach(log::warn)),
          config.connectTimeout(),
          null);
      RedlockMetrics metrics = IsolatedMetrics.of(config.metrics());
      NodeMembership membership =
          new NodeMembership(nodes, config, metrics, env.wallClockMillis(), env.ids());
      if (config.fencing()) {
        CompletableFuture<Boolean> initialized = membership.initializeIfNew();
        nodes.awaitOnClose(
            initialized); // a create() that fails meanwhile lets the marker writes finish
        awaitQuietly(initialized, config.connectTimeout(), false);
      }
      if (Thread.currentThread().isInterrupted()) {
        throw new RedlockException("interrupted while connecting to the nodes");
      }
      LockContext ctx =
          new LockContext(
              config,
              metrics,
              env,
              nodes,
              new KeySpace(config.keyPrefix()),
              membership,
              new TokenHints(TokenHints.DEFAULT_CAPACITY),
              new ReleaseWaiters(
                  nodes, driver.releases(), env.scheduler(), config.ticker(), env.ids().get()),
              new AtomicBoolean(),
              new KeptAlive());
      log.info(
          "Redlock over {} nodes (quorum {}), fencing {}",
          config.nodes().size(),
          config.quorum(),
          config.fencing() ? "on" : "off");
      return new DefaultRedlock(config, ctx);
    } catch (RuntimeException | Error e) {
      boolean interrupted = Thread.interrupted(); // so that closing can wait for what it must
      try {
        Futures.await(nodes.closeAsync(env.scheduler()), Nodes.callBoundNanos(config));
      } catch (RuntimeException | Error closing) {
        e.addSuppressed(closing);
      } finally {
        closeQuietly(driver, env);
        if (interrupted) {
          Thread.currentThread().interrupt();
        }
      }
      throw e;
    }
  }

  private static void closeQuietly(NodeDriver driver, Environment env) {
    env.scheduler().shutdown();
    driver.close();
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
  public NodeHealth health() {
    Futures.checkNotInterrupted();
    Nodes nodes = ctx.nodes();
    List<CompletableFuture<NodeReply>> reads =
        nodes.fanOut(
            nodes.all(),
            i ->
                nodes.call(
                    i,
                    d -> d.readMarks(i),
                    // Without fencing, nodes carry no marker and are never excluded for it.
                    marks ->
                        marks.initialized() || !config.fencing()
                            ? NodeReply.of(i, NodeStatus.GRANTED, "")
                            : NodeReply.of(
                                i,
                                NodeStatus.UNINITIALIZED,
                                "no initialization marker: lost its data, or not initialized"
                                    + " yet")));
    List<NodeOutcome> outcomes =
        Futures.await(
            CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new))
                .thenApply(
                    done ->
                        reads.stream()
                            .map(CompletableFuture::join)
                            .map(reply -> reply.toOutcome(nodes.label(reply.node())))
                            .toList()),
            ctx.callBoundNanos());
    long answering = outcomes.stream().filter(o -> o.status() == NodeStatus.GRANTED).count();
    return new NodeHealth(outcomes, answering >= nodes.quorum());
  }

  @Override
  public Optional<Lease> tryAcquire(String resource, Duration ttl) {
    Futures.checkNotInterrupted();
    return Futures.await(
        attempt(resource, ttl),
        ctx.callBoundNanos(),
        lease -> lease.ifPresent(Lease::releaseAsync));
  }

  /**
   * The stage is the attempt's own future, not a copy: a caller that cancels (or otherwise
   * completes) it abandons the attempt, and a lease the attempt still gains is released.
   */
  @Override
  public CompletionStage<Optional<Lease>> tryAcquireAsync(String resource, Duration ttl) {
    return handOut(attempt(resource, ttl));
  }

  private CompletableFuture<Optional<Lease>> attempt(String resource, Duration ttl) {
    checkArguments(resource, ttl, Duration.ZERO);
    CompletableFuture<Optional<Lease>> result = track(resource, new CompletableFuture<>());
    AcquireAttempt.run(
        ctx,
        resource,
        ttl,
        null,
        false,
        null,
        null,
        (outcome, bug) -> {
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
    return Futures.await(
        start(resource, ttl, maxWait),
        maxWait.toNanos() + ctx.callBoundNanos(),
        Lease::releaseAsync);
  }

  /**
   * The stage is the acquire's own future: cancelling it abandons the acquire (see {@link
   * #tryAcquireAsync}).
   */
  @Override
  public CompletionStage<Lease> acquireAsync(String resource, Duration ttl, Duration maxWait) {
    return handOut(start(resource, ttl, maxWait));
  }

  private CompletableFuture<Lease> start(String resource, Duration ttl, Duration maxWait) {
    checkArguments(resource, ttl, maxWait);
    WaitingAcquire acquire =
        new WaitingAcquire(
            ctx,
            releases,
            timers,
            closed::get,
            (attempts, failed) -> failure(resource, attempts, failed),
            resource,
            ttl,
            maxWait);
    return track(resource, acquire.start());
  }

  /**
   * Registers a call's future so that {@link #close()} can fail it, and fails it at once if the
   * client closed while it was registered (close() may have missed it).
   */
  private <T> CompletableFuture<T> track(String resource, CompletableFuture<T> call) {
    long id = calls.incrementAndGet();
    long started = ctx.ticker().read();
    pending.put(id, new PendingCall(resource, call));
    call.whenComplete(
        (value, e) -> {
          pending.remove(id);
          ctx.metrics()
              .acquired(
                  ctx.ticker().read() - started,
                  e == null && !(value instanceof Optional<?> attempt && attempt.isEmpty()));
        });
    if (closed.get()) {
      call.completeExceptionally(closedWhileWaiting(resource));
    }
    return call;
  }

  /**
   * What the async acquire methods return: the call's own future, so that a caller's cancel reaches
   * it ({@link Regression#CANCEL_LEAKS_THE_LEASE} puts back the copy that it did not).
   */
  private <T> CompletionStage<T> handOut(CompletableFuture<T> call) {
    return ctx.env().reintroduces(Regression.CANCEL_LEAKS_THE_LEASE)
        ? call.thenApply(value -> value)
        : call;
  }

  private static RedlockException closedWhileWaiting(String resource) {
    return new RedlockException(
        "the acquire of "
            + ResourceNames.quoted(resource)
            + " was abandoned: its Redlock was closed");
  }

  @Override
  public MultiLease acquireAll(
      java.util.Collection<String> resources, Duration ttl, Duration maxWait) {
    if (!config.fencing()) {
      throw new IllegalStateException(
          "locking several resources at once needs fencing: it returns their tokens");
    }
    java.util.Objects.requireNonNull(resources, "resources");
    List<String> names = List.copyOf(resources);
    if (names.isEmpty() || new java.util.HashSet<>(names).size() != names.size()) {
      throw new IllegalArgumentException(
          "resources must be distinct and at least one: " + ResourceNames.quoted(names));
    }
    for (String resource : names) {
      checkArguments(resource, ttl, maxWait);
    }
    Futures.checkNotInterrupted();
    String label = String.join(",", names);
    CompletableFuture<MultiLease> result = track(label, new CompletableFuture<>());
    attemptAll(names, label, ttl, ctx.ticker().read() + maxWait.toNanos(), 1, result);
    return Futures.await(
        result,
        maxWait.toNanos() + ctx.callBoundNanos(),
        lease -> ((DefaultMultiLease) lease).releaseAsync());
  }

  private void attemptAll(
      List<String> names,
      String label,
      Duration ttl,
      long giveUpAt,
      int attempt,
      CompletableFuture<MultiLease> result) {
    if (result.isDone()) {
      return; // given up, or the client closed
    }
    MultiLockAttempt current = new MultiLockAttempt(ctx, names, ttl);
    CompletableFuture<Void> handled = new CompletableFuture<>();
    ctx.nodes().awaitOnClose(handled);
    current
        .run()
        .whenComplete(
            (lease, bug) -> {
              try {
                if (bug != null) {
                  result.completeExceptionally(bug);
                } else if (lease != null) {
                  if (!result.complete(lease)) {
                    lease.releaseAsync(); // the caller gave up meanwhile, or the client closed
                  }
                } else {
                  long delay =
                      config.retryDelay().toNanos()
                          + (config.retryJitter().isZero()
                              ? 0
                              : ctx.env().random().nextLong(config.retryJitter().toNanos()));
                  if (ctx.ticker().read() + delay - giveUpAt > 0 || closed.get()) {
                    result.completeExceptionally(
                        new LockAcquisitionException(
                            label,
                            attempt,
                            "no quorum of nodes took every lock",
                            ctx.nodes().outcomes(current.replies())));
                  } else {
                    timers.schedule(
                        () -> attemptAll(names, label, ttl, giveUpAt, attempt + 1, result), delay);
                  }
                }
              } catch (RuntimeException e) {
                result.completeExceptionally(e); // e.g. the scheduler was shut down by close()
              } finally {
                handled.complete(null);
              }
            });
  }

  private LockAcquisitionException failure(
      String resource, int attempts, AcquireAttempt.Failed failed) {
    LockAcquisitionException e =
        new LockAcquisitionException(
            resource, attempts, failed.reason(), ctx.nodes().outcomes(failed.replies()));
    failed.replies().stream()
        .map(NodeReply::error)
        .filter(java.util.Objects::nonNull)
        .forEach(e::addSuppressed);
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
      throw new IllegalArgumentException(
          "maxWait must be between 0 and " + MAX_WAIT.toDays() + " days: " + maxWait);
    }
  }

  @Override
  public <T> CompletionStage<T> withLockAsync(
      String resource,
      LockOptions options,
      java.util.function.Function<Lease, ? extends CompletionStage<T>> work) {
    return LockedWork.runAsync(this, resource, options, work, timers.work());
  }

  /**
   * Fails every pending call, then waits for the releases and attempts in flight (a lease such an
   * attempt gains is released), then closes the driver and the scheduler. Called on one of this
   * client's own threads (from a callback), or from a loss callback that closing itself runs, it
   * cannot wait for that thread: it fails the pending calls at once and finishes closing in the
   * background.
   */
  @Override
  public void close() {
    CompletableFuture<Void> closing = closeAsync().toCompletableFuture();
    if (!ctx.nodes().driver().isDriverThread()
        && !timers.isSchedulerThread()
        && losingLeases != Thread.currentThread()) {
      Futures.await(closing, Nodes.callBoundNanos(config) + CLOSE_MARGIN_NANOS);
    }
  }

  @Override
  public CompletionStage<Void> closeAsync() {
    if (closed.compareAndSet(false, true)) {
      releases.stopHandoffs();
      // Loss callbacks and the failed calls' dependents run on this thread: a close() from one of
      // them must not wait for the closing it is inside.
      losingLeases = Thread.currentThread();
      try {
        ctx.keptAlive().loseAll();
        if (!ctx.env().reintroduces(Regression.CLOSE_LEAVES_WAITING_ACQUIRES)) {
          new java.util.TreeMap<>(pending)
              .values() // in call order
              .forEach(
                  call -> call.future().completeExceptionally(closedWhileWaiting(call.resource())));
        }
      } finally {
        losingLeases = null;
      }
      ctx.nodes()
          .closeAsync(timers)
          .whenComplete(
              (ignored, failure) -> {
                timers.shutdown();
                closedDown.complete(null);
              });
    }
    return closedDown.minimalCompletionStage();
  }
}
