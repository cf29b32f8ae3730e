package io.fencedlock.chaos.client;

import io.fencedlock.chaos.history.Fields;
import io.fencedlock.redlock.spi.InitReply;
import io.fencedlock.redlock.spi.LockReply;
import io.fencedlock.redlock.spi.LockRequest;
import io.fencedlock.redlock.spi.MultiLockReply;
import io.fencedlock.redlock.spi.NamingRelease;
import io.fencedlock.redlock.spi.NodeDriver;
import io.fencedlock.redlock.spi.NodeMarks;
import io.fencedlock.redlock.spi.ReleaseFeed;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

/**
 * A {@link NodeDriver} around the real one that reports what the harness needs and changes what the
 * algorithm sees in one case only (a fault armed between the phases of an acquire makes the token
 * prediction miss, see {@link #missIfTargeted}): it stops at the targeted {@link Point}s that live
 * inside the library (between the two phases of an acquire, in a release, in a renewal), reports
 * node calls that failed (at most one per node every {@value #FAILURE_REPORT_MILLIS} ms, enough to
 * show that a fault bit) and every re-admission with its epoch and this process's wall clock, so
 * that the harness sees which term of the epoch won. Thread-safe as the driver it wraps.
 */
final class ProbeDriver implements NodeDriver {
  static final long FAILURE_REPORT_MILLIS = 100;

  private final NodeDriver real;
  private final Checkpoints points;
  private final ClientOutput out;
  private final AtomicLongArray lastFailureReport;
  private final LongSupplier wallClockMillis;

  /** The attempt (owner id) whose first lock step last went out with its prediction. */
  private final AtomicReference<String> predictedFor = new AtomicReference<>();

  /**
   * @param wallClockMillis the wall clock the library reads (skewed in some experiments), so that a
   *     re-admission epoch is compared with the clock that competed with the high-water mark
   */
  ProbeDriver(NodeDriver real, Checkpoints points, ClientOutput out, LongSupplier wallClockMillis) {
    this.wallClockMillis = wallClockMillis;
    this.real = real;
    this.points = points;
    this.out = out;
    this.lastFailureReport = new AtomicLongArray(real.size());
    for (int i = 0; i < real.size(); i++) {
      lastFailureReport.set(i, System.nanoTime() - TimeUnit.SECONDS.toNanos(1));
    }
  }

  private <T> CompletableFuture<T> watch(int node, CompletableFuture<T> call) {
    call.whenComplete(
        (reply, failure) -> {
          if (failure != null) {
            failed(node, failure);
          }
        });
    return call;
  }

  private void failed(int node, Throwable failure) {
    long now = System.nanoTime();
    long last = lastFailureReport.get(node);
    if (now - last < TimeUnit.MILLISECONDS.toNanos(FAILURE_REPORT_MILLIS)
        || !lastFailureReport.compareAndSet(node, last, now)) {
      return;
    }
    Throwable cause =
        failure instanceof CompletionException && failure.getCause() != null
            ? failure.getCause()
            : failure;
    out.send(
        Map.of(
            "type",
            "observe",
            "value",
            Map.of(
                Fields.OBSERVED,
                "node-failure",
                Fields.NODE,
                node,
                Fields.ERROR,
                cause.getClass().getSimpleName())));
  }

  @Override
  public int size() {
    return real.size();
  }

  @Override
  public String label(int node) {
    return real.label(node);
  }

  @Override
  public void connect(Duration timeout) {
    real.connect(timeout);
  }

  @Override
  public CompletableFuture<LockReply> lock(int node, LockRequest request) {
    CompletableFuture<LockReply> call = watch(node, real.lock(node, missIfTargeted(request)));
    // A node killed and restarted at once without its data may never fail a call (nothing was
    // in flight at the kill); what shows is that it answers without its marker.
    call.thenAccept(
        reply -> {
          if (reply instanceof LockReply.Uninitialized) {
            failed(node, new IllegalStateException("uninitialized"));
          }
        });
    return call;
  }

  /**
   * While a fault is armed between the phases of an acquire, makes the token prediction miss: an
   * attempt's first lock step keeps its predicted token, every other goes out without one, as if
   * another client's acquire had raised those nodes' counters above it. So no quorum has the token
   * written in phase 1 and the acquire takes its second phase, where the armed point is; without
   * this, the prediction makes nearly every acquire a single round trip and the window is rarely
   * there. The first lock step keeps it so that a contended attempt's lead writes it and is not
   * re-predicted (which would write on the lead before the quorum is known). Changes nothing when
   * that point is not armed.
   */
  private LockRequest missIfTargeted(LockRequest request) {
    if (request.predictedToken() == 0 || !points.isArmed(Point.BETWEEN_PHASES)) {
      return request;
    }
    String previous = predictedFor.getAndSet(request.owner());
    if (!request.owner().equals(previous)) {
      return request;
    }
    return new LockRequest(
        request.lockKey(),
        request.fenceKey(),
        request.owner(),
        request.ttlMillis(),
        0,
        request.predecessorOwner());
  }

  @Override
  public CompletableFuture<Boolean> writeToken(
      int node, String lockKey, String fenceKey, String owner, long token) {
    points.at(Point.BETWEEN_PHASES);
    return watch(node, real.writeToken(node, lockKey, fenceKey, owner, token));
  }

  @Override
  public CompletableFuture<Boolean> lengthen(
      int node, String lockKey, String owner, long ttlMillis) {
    if (!points.isExtending()) {
      points.at(Point.IN_RENEWAL);
    }
    return watch(node, real.lengthen(node, lockKey, owner, ttlMillis));
  }

  @Override
  public CompletableFuture<Boolean> release(
      int node, String lockKey, String owner, @Nullable String announceOn) {
    points.at(Point.IN_RELEASE);
    return watch(node, real.release(node, lockKey, owner, announceOn));
  }

  @Override
  public CompletableFuture<NamingRelease> releaseNamingNext(
      int node, String lockKey, String owner, String announceOn, String namedPrefix, long token) {
    points.at(Point.IN_RELEASE);
    return watch(
        node, real.releaseNamingNext(node, lockKey, owner, announceOn, namedPrefix, token));
  }

  @Override
  public CompletableFuture<Long> announce(int node, String channel, String message) {
    return watch(node, real.announce(node, channel, message));
  }

  @Override
  public CompletableFuture<MultiLockReply> lockAll(
      int node, List<String> lockKeys, List<String> fenceKeys, String owner, long ttlMillis) {
    CompletableFuture<MultiLockReply> call =
        watch(node, real.lockAll(node, lockKeys, fenceKeys, owner, ttlMillis));
    call.thenAccept(
        reply -> {
          if (reply instanceof MultiLockReply.Uninitialized) {
            failed(node, new IllegalStateException("uninitialized"));
          }
        });
    return call;
  }

  @Override
  public CompletableFuture<Boolean> writeTokens(
      int node, List<String> lockKeys, List<String> fenceKeys, String owner, List<Long> tokens) {
    points.at(Point.BETWEEN_PHASES);
    return watch(node, real.writeTokens(node, lockKeys, fenceKeys, owner, tokens));
  }

  @Override
  public CompletableFuture<Boolean> lengthenAll(
      int node, List<String> lockKeys, String owner, long ttlMillis) {
    return watch(node, real.lengthenAll(node, lockKeys, owner, ttlMillis));
  }

  @Override
  public CompletableFuture<Long> releaseAll(
      int node, List<String> lockKeys, String owner, @Nullable List<String> channels) {
    points.at(Point.IN_RELEASE);
    return watch(node, real.releaseAll(node, lockKeys, owner, channels));
  }

  @Override
  public CompletableFuture<NodeMarks> readMarks(int node) {
    return watch(node, real.readMarks(node));
  }

  @Override
  public CompletableFuture<Boolean> hasMarker(int node) {
    return real.hasMarker(node);
  }

  @Override
  public CompletableFuture<String> nameEmptyIncarnation(int node, String freshName) {
    return real.nameEmptyIncarnation(node, freshName);
  }

  @Override
  public CompletableFuture<InitReply> initialize(
      int node, long epoch, @Nullable String incarnation) {
    // The library computes epoch = max(wall clock ms × 1000, highest mark + 1) just before this
    // call: an epoch above this process's wall clock now means the high-water mark decided it.
    long wallEpoch = wallClockMillis.getAsLong() * 1000;
    CompletableFuture<InitReply> call = real.initialize(node, epoch, incarnation);
    if (incarnation != null) {
      call.thenAccept(
          reply ->
              out.send(
                  Map.of(
                      "type",
                      "observe",
                      "value",
                      Map.of(
                          Fields.OBSERVED,
                          "readmit",
                          Fields.NODE,
                          node,
                          Fields.EPOCH,
                          epoch,
                          Fields.WALL_EPOCH,
                          wallEpoch,
                          "outcome",
                          reply.outcome().name()))));
    }
    return call;
  }

  @Override
  public CompletableFuture<String> serverId(int node) {
    return real.serverId(node);
  }

  @Override
  public CompletableFuture<List<String>> settingsWarnings() {
    return real.settingsWarnings();
  }

  @Override
  public ReleaseFeed releases() {
    return real.releases();
  }

  @Override
  public boolean isDriverThread() {
    return real.isDriverThread();
  }

  @Override
  public void close() {
    real.close();
  }
}
