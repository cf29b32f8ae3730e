package io.fencedlock.redlock;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/** A {@link MultiLease} of one {@link DefaultRedlock}. Thread-safe. */
final class DefaultMultiLease implements MultiLease {
  private final LockContext ctx;
  private final List<String> resources;
  private final List<String> lockKeys;
  private final String owner;
  private final Map<String, Long> tokens = new LinkedHashMap<>();
  private final AtomicLong deadline;
  private final AtomicBoolean released = new AtomicBoolean();

  /** Extend calls made so far: each reserves its slot before it is sent. */
  private final AtomicInteger extensions = new AtomicInteger();

  private final List<CompletableFuture<NodeReply>> acquireSettled;

  DefaultMultiLease(
      LockContext ctx,
      List<String> resources,
      List<String> lockKeys,
      String owner,
      List<Long> tokens,
      long deadlineNanos,
      List<CompletableFuture<NodeReply>> acquireSettled) {
    this.ctx = ctx;
    this.resources = List.copyOf(resources);
    this.lockKeys = List.copyOf(lockKeys);
    this.owner = owner;
    for (int i = 0; i < resources.size(); i++) {
      this.tokens.put(resources.get(i), tokens.get(i));
    }
    this.deadline = new AtomicLong(deadlineNanos);
    this.acquireSettled = acquireSettled;
  }

  @Override
  public List<String> resources() {
    return resources;
  }

  @Override
  public String ownerId() {
    return owner;
  }

  @Override
  public long fencingToken(String resource) {
    Long token = tokens.get(resource);
    if (token == null) {
      throw new IllegalArgumentException(
          "resource "
              + ResourceNames.quoted(resource)
              + " is not one of "
              + ResourceNames.quoted(resources));
    }
    return token;
  }

  @Override
  public Map<String, Long> fencingTokens() {
    return java.util.Collections.unmodifiableMap(tokens);
  }

  @Override
  public Duration remainingValidity() {
    return released.get() ? Duration.ZERO : Validity.remaining(deadline.get(), ctx.ticker().read());
  }

  @Override
  public boolean isValid() {
    return !remainingValidity().isZero();
  }

  @Override
  public boolean extend(Duration ttl) {
    Validity.checkTtl("ttl", ttl, ctx.config().driftFactor(), ctx.config().maxLeaseTtl());
    long start = ctx.ticker().read();
    if (!isValid()) {
      throw new LockExpiredException(
          "cannot extend the lease on "
              + ResourceNames.quoted(resources)
              + ": it is no longer valid");
    }
    int max = ctx.config().maxExtensions();
    if (extensions.getAndUpdate(made -> Math.min(made + 1, max)) >= max) {
      throw new IllegalStateException(
          "the lease on "
              + ResourceNames.quoted(resources)
              + " was already extended "
              + max
              + " times (the limit is RedlockConfig.Builder.maxExtensions)");
    }
    Nodes nodes = ctx.nodes();
    List<CompletableFuture<NodeReply>> calls =
        nodes.fanOut(
            nodes.all(),
            node ->
                nodes.call(
                    node,
                    d -> d.lengthenAll(node, lockKeys, owner, ttl.toMillis()),
                    ok ->
                        ok
                            ? NodeReply.granted(node, 0)
                            : NodeReply.of(node, NodeStatus.REFUSED, "no longer ours")));
    QuorumRound.Result round =
        Futures.await(QuorumRound.decide(nodes.all(), calls, nodes.quorum()), ctx.callBoundNanos());
    long confirmed = Validity.deadline(start, ttl, ctx.config().driftFactor());
    if (!round.reached() || released.get() || ctx.ticker().read() - deadline.get() >= 0) {
      return false;
    }
    deadline.accumulateAndGet(
        confirmed, (current, candidate) -> candidate - current > 0 ? candidate : current);
    return true;
  }

  @Override
  public boolean release() {
    return Futures.await(releaseAsync(), ctx.callBoundNanos());
  }

  /** Starts the release once; completes like {@link #release()} returns, without blocking. */
  CompletableFuture<Boolean> releaseAsync() {
    if (!released.compareAndSet(false, true)) {
      return CompletableFuture.completedFuture(false);
    }
    boolean wasValid = ctx.ticker().read() - deadline.get() < 0;
    if (ctx.nodes().isClosed()) {
      return CompletableFuture.completedFuture(false);
    }
    List<String> channels = lockKeys.stream().map(ReleaseChannel::of).toList();
    CompletableFuture<Void> allDone = new CompletableFuture<>();
    ctx.nodes().awaitOnClose(allDone);
    List<CompletableFuture<NodeReply>> calls =
        ctx.nodes()
            .afterEachSettled(
                acquireSettled,
                node -> false, // waits for each node's reply, as before
                true,
                node ->
                    ctx.nodes()
                        .call(
                            node,
                            d -> d.releaseAll(node, lockKeys, owner, channels),
                            deleted -> NodeReply.granted(node, deleted)));
    return QuorumRound.decide(ctx.nodes().all(), calls, ctx.nodes().quorum(), allDone)
        .thenApply(round -> wasValid);
  }

  @Override
  public void close() {
    try {
      release();
    } catch (RedlockException interrupted) {
      // interrupted while waiting for the deletes: they go on in the background
    }
  }

  @Override
  public String toString() {
    return "MultiLease[" + tokens + ", valid for " + remainingValidity().toMillis() + " ms]";
  }
}
