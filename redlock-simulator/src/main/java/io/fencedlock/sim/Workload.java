package io.fencedlock.sim;

import io.fencedlock.redlock.Lease;
import io.fencedlock.redlock.LockOptions;
import io.fencedlock.redlock.Renewal;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The clients' application code: starts the plan's acquires at their times, cancels them when told,
 * extends and releases the leases it gets, runs work under {@code withLockAsync} (the library keeps
 * its lease alive and releases it), closes clients; every call is registered with the {@link
 * CallBook} and every lease with the {@link LeaseBook} and {@link TokenLedger}. Every action is an
 * event of its client, so a paused client's code does not run either. After the schedule heals,
 * leases still held are released and new ones released at once.
 */
final class Workload {
  /** What closing may take beyond the call bound (the core's close() allows itself the same). */
  private static final long CLOSE_MARGIN_NANOS = 5_000_000_000L;

  private final World world;
  private final List<SimClient> clients;
  private final LeaseBook leases;
  private final TokenLedger tokens;
  private final CallBook calls;
  private final long callBoundNanos;
  private boolean healed;

  Workload(
      World world,
      List<SimClient> clients,
      LeaseBook leases,
      TokenLedger tokens,
      CallBook calls,
      long callBoundNanos) {
    this.world = world;
    this.clients = clients;
    this.leases = leases;
    this.tokens = tokens;
    this.calls = calls;
    this.callBoundNanos = callBoundNanos;
  }

  void schedule(List<Op> ops) {
    for (Op op : ops) {
      world.loop.at(op.at(), op.client(), () -> start(op));
    }
  }

  private void start(Op op) {
    SimClient client = clients.get(op.client());
    if (client.closed) {
      return;
    }
    if (op.keptAlive()) {
      startWork(op, client);
      return;
    }
    String resource = Simulation.resource(op.resource());
    Duration ttl = Duration.ofMillis(op.ttlMillis());
    long calledAt = world.loop.now();
    CompletableFuture<?> call;
    if (op.tryOnly()) {
      CompletableFuture<Optional<Lease>> f =
          client.redlock.tryAcquireAsync(resource, ttl).toCompletableFuture();
      calls.started("tryAcquire(" + resource + ")", op.client(), callBoundNanos, f);
      f.whenComplete(
          (lease, e) -> {
            if (e == null && lease.isPresent()) {
              granted(op.client(), op, lease.get(), calledAt);
            }
          });
      call = f;
    } else {
      Duration maxWait = Duration.ofMillis(op.maxWaitMillis());
      CompletableFuture<Lease> f =
          client.redlock.acquireAsync(resource, ttl, maxWait).toCompletableFuture();
      calls.started(
          "acquire(" + resource + ")", op.client(), maxWait.toNanos() + callBoundNanos, f);
      f.whenComplete(
          (lease, e) -> {
            if (e == null) {
              granted(op.client(), op, lease, calledAt);
            }
          });
      call = f;
    }
    world.trace.add(
        world.loop.now(),
        op.tryOnly() ? "tryAcquire" : "acquire",
        op.client(),
        -1,
        op.ttlMillis(),
        resource);
    if (op.cancelAfterNanos() >= 0) {
      world.loop.after(
          op.cancelAfterNanos(),
          op.client(),
          () -> {
            if (!call.isDone()) {
              world.stats.cancels++;
              world.trace.add(
                  world.loop.now(), "cancel", op.client(), -1, Long.MIN_VALUE, resource);
              call.cancel(true);
            }
          });
    }
  }

  /**
   * {@code withLockAsync}: the work runs for the op's hold, unless the library tells it that the
   * lease was lost (cancels its stage) first; the library keeps the lease alive meanwhile, and
   * releases it after.
   */
  private void startWork(Op op, SimClient client) {
    String resource = Simulation.resource(op.resource());
    long calledAt = world.loop.now();
    LockOptions options =
        new LockOptions(
            Duration.ofMillis(op.ttlMillis()),
            Duration.ofMillis(op.maxWaitMillis()),
            Renewal.defaults(),
            true);
    CompletableFuture<Void> call =
        client
            .redlock
            .withLockAsync(resource, options, lease -> work(op, lease, calledAt))
            .toCompletableFuture();
    calls.started(
        "withLockAsync(" + resource + ")",
        op.client(),
        op.maxWaitMillis() * 1_000_000L + op.holdNanos() + 2 * callBoundNanos,
        call);
    world.trace.add(world.loop.now(), "withLock", op.client(), -1, op.ttlMillis(), resource);
  }

  private CompletableFuture<Void> work(Op op, Lease lease, long calledAt) {
    LeaseBook.Held held = granted(op.client(), op, lease, calledAt);
    CompletableFuture<Void> work = new CompletableFuture<>();
    held.work = work;
    world.stats.works++;
    work.whenComplete(
        (done, told) -> {
          leases.releaseCalled(held); // the library releases the lease once the work has ended
          if (told != null) {
            world.stats.worksTold++;
            world.trace.add(
                world.loop.now(), "work-told", held.client, -1, Long.MIN_VALUE, held.owner);
          }
        });
    world.loop.after(healed ? 0 : op.holdNanos(), op.client(), () -> finishWork(held));
    return work;
  }

  /** The work ends (its time is up, or the schedule healed), unless it was told already. */
  private void finishWork(LeaseBook.Held held) {
    if (held.work.isDone()) {
      return;
    }
    leases.workEnds(held);
    world.stats.releases++;
    world.trace.add(world.loop.now(), "work-done", held.client, -1, Long.MIN_VALUE, held.owner);
    held.work.complete(null);
  }

  private LeaseBook.Held granted(int client, Op op, Lease lease, long calledAt) {
    world.stats.leases++;
    long token = lease.isFenced() ? lease.fencingToken() : -1;
    world.trace.add(world.loop.now(), "granted", client, -1, token, lease.ownerId());
    if (lease.isFenced()) {
      tokens.granted(op.resource(), token, calledAt, world.loop.now(), client, lease.ownerId());
    }
    LeaseBook.Held held = leases.add(client, op.resource(), lease);
    if (op.keptAlive()) {
      return held; // its work runs, whatever the schedule does meanwhile
    }
    if (healed || clients.get(client).closed) {
      release(held);
      return held;
    }
    for (long[] extend : op.extendsAfter()) {
      world.loop.after(extend[0], client, () -> extend(held, extend[1]));
    }
    if (op.holdNanos() >= 0) {
      world.loop.after(op.holdNanos(), client, () -> release(held));
    }
    return held;
  }

  private void extend(LeaseBook.Held held, long ttlMillis) {
    if (held.releaseCalled || healed || clients.get(held.client).closed) {
      return;
    }
    world.stats.extends_++;
    world.trace.add(world.loop.now(), "extend", held.client, -1, ttlMillis, held.owner);
    CompletableFuture<Boolean> f =
        held.lease.extendAsync(Duration.ofMillis(ttlMillis)).toCompletableFuture();
    calls.started("extend", held.client, callBoundNanos, f);
  }

  private void release(LeaseBook.Held held) {
    if (held.work != null) {
      finishWork(held); // the library releases a kept-alive lease when its work ends
      return;
    }
    if (held.releaseCalled) {
      return;
    }
    leases.releaseCalled(held);
    if (clients.get(held.client).closed) {
      world.audit.exempt(
          held.owner); // a closed client's release sends nothing: the key stays to its TTL
    }
    world.stats.releases++;
    world.trace.add(world.loop.now(), "release", held.client, -1, Long.MIN_VALUE, held.owner);
    calls.started(
        "release", held.client, callBoundNanos, held.lease.releaseAsync().toCompletableFuture());
  }

  /** The {@link Fault.ThrowingMetrics} fault: the client's metrics sink throws from now on. */
  void metricsThrow(int index) {
    SimMetrics sink = clients.get(index).metrics;
    if (sink != null) {
      sink.startThrowing();
    }
  }

  /**
   * The client calls closeAsync(); the leases it holds stay on the nodes until their TTL. Work
   * under withLockAsync must be told: closing stops the renewal of its lease.
   */
  void close(int index) {
    SimClient client = clients.get(index);
    if (client.closed) {
      return;
    }
    client.closed = true;
    if (!healed) {
      world
          .stats
          .clientCloses++; // a fault; after healing every client closes, as the schedule ends
    }
    for (LeaseBook.Held held : leases.unreleasedOf(index)) {
      world.audit.exempt(held.owner);
    }
    world.trace.add(world.loop.now(), "close", index, -1, Long.MIN_VALUE, null);
    calls.started(
        "close",
        index,
        callBoundNanos + CLOSE_MARGIN_NANOS,
        client.redlock.closeAsync().toCompletableFuture());
  }

  /** The schedule healed: leases still held are released (by their clients, when they run). */
  void heal() {
    healed = true;
    for (SimClient client : clients) {
      if (client.closed) {
        continue;
      }
      for (LeaseBook.Held held : leases.unreleasedOf(client.index)) {
        world.loop.at(world.loop.now(), client.index, () -> release(held));
      }
    }
  }

  /**
   * After healing and a quiet period, one acquire per resource by a fresh client must succeed; the
   * lease is released at once. Returns the calls, to check once they had their time.
   */
  List<CompletableFuture<Lease>> finalAcquires(
      SimClient client, int resources, Duration ttl, Duration maxWait) {
    List<CompletableFuture<Lease>> finals = new java.util.ArrayList<>();
    for (int r = 0; r < resources; r++) {
      int resource = r;
      long calledAt = world.loop.now();
      CompletableFuture<Lease> f =
          client.redlock.acquireAsync(Simulation.resource(r), ttl, maxWait).toCompletableFuture();
      calls.started(
          "final acquire(" + Simulation.resource(r) + ")",
          client.index,
          maxWait.toNanos() + callBoundNanos,
          f);
      f.whenComplete(
          (lease, e) -> {
            if (e == null) {
              granted(
                  client.index,
                  new Op(
                      calledAt,
                      client.index,
                      resource,
                      false,
                      (int) ttl.toMillis(),
                      (int) maxWait.toMillis(),
                      -1,
                      0,
                      List.of(),
                      false),
                  lease,
                  calledAt);
            }
          });
      finals.add(f);
    }
    return finals;
  }
}
