package io.fencedlock.chaos.workload;

import io.fencedlock.chaos.client.CanaryRegister;
import io.fencedlock.chaos.client.LockClient;
import io.fencedlock.chaos.client.RecordingClient;
import io.fencedlock.chaos.fixture.ChaosCluster;
import io.fencedlock.chaos.history.Fields;
import io.fencedlock.chaos.history.Fn;
import io.fencedlock.chaos.history.HistoryRecorder;
import io.fencedlock.chaos.history.Op;
import io.fencedlock.chaos.history.OpType;
import io.fencedlock.chaos.nemesis.ClientPauses;
import io.fencedlock.redlock.Redlock;
import io.fencedlock.redlock.RedlockConfig;
import io.fencedlock.redlock.lettuce.LettuceNodeDriver;
import io.fencedlock.redlock.spi.Environment;
import io.fencedlock.storage.StoredObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs the clients of a {@link WorkloadSpec} on their own threads against a {@link ChaosCluster}
 * and records their history; ends with a final read of both registers. {@link #open()} then {@link
 * #start} once; {@link #close()} stops and joins every thread and closes every client. Thread-safe.
 */
public final class Workload implements AutoCloseable {
  private static final Duration JOIN_BOUND = Duration.ofSeconds(30);
  private static final Duration WARMUP_BOUND = Duration.ofSeconds(30);
  private static final String WARMUP_KEY = "chaos:warmup";

  private final WorkloadSpec spec;
  private final ChaosCluster cluster;
  private HistoryRecorder history;
  private final CanaryRegister canary = new CanaryRegister();
  private final AtomicBoolean stopping = new AtomicBoolean();
  private final List<Thread> threads = new ArrayList<>();
  private final List<LockClient> lockClients = new ArrayList<>();

  public Workload(WorkloadSpec spec, ChaosCluster cluster) {
    this.spec = spec;
    this.cluster = cluster;
  }

  /**
   * Creates every client, each with its own Redlock over its own proxies (connecting takes a
   * while).
   */
  public synchronized void open() {
    for (int c = 0; c < spec.clients(); c++) {
      RedlockConfig config =
          RedlockConfig.builder()
              .nodes(cluster.urisOf(c))
              .nodeTimeout(spec.nodeTimeout())
              .maxLeaseTtl(spec.maxLeaseTtl())
              .retryDelay(Duration.ofMillis(50))
              .retryJitter(Duration.ofMillis(50))
              .tokenPrediction(spec.tokenPrediction())
              .build();
      // The marker check is switched off only for the negative control, through the driver:
      // the public configuration has no such switch.
      Redlock redlock =
          spec.nodeInitCheck()
              ? Redlock.create(config)
              : Redlock.create(
                  config,
                  LettuceNodeDriver.open(
                      config, LettuceNodeDriver.Options.defaults().withoutMarkerCheckUnsafe()),
                  Environment.system());
      lockClients.add(
          new LockClient(
              redlock,
              cluster.storage().client(),
              canary,
              spec.resource(),
              spec.ttl(),
              spec.maxWait()));
      warmUp(redlock);
    }
    cluster
        .storage()
        .client()
        .put(WARMUP_KEY, new byte[] {1}, 1, "00000000000000000000000000000000");
  }

  /**
   * Waits (bounded) until this client has once acquired the resource's lock: the nodes are
   * initialized, the connections, scripts and release subscriptions are set up and the JIT has seen
   * the path, so a run starts from a healthy steady state instead of measuring start-up.
   */
  private void warmUp(Redlock redlock) {
    long deadline = System.nanoTime() + WARMUP_BOUND.toNanos();
    while (System.nanoTime() < deadline) {
      var lease = redlock.tryAcquire(spec.resource(), spec.ttl());
      if (lease.isPresent()) {
        lease.get().release();
        return;
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
    }
    throw new IllegalStateException(
        "the cluster did not grant a lock within " + WARMUP_BOUND + " before the run");
  }

  /** Starts one worker thread per opened client, recording into {@code recorder}. */
  public synchronized void start(HistoryRecorder recorder, ClientPauses pauses) {
    this.history = recorder;
    for (int c = 0; c < lockClients.size(); c++) {
      RecordingClient recording =
          new RecordingClient(lockClients.get(c), history, c, spec.clients());
      Thread t =
          new Thread(
              new Worker(c, recording, pauses, stopping::get, spec.work().toMillis()),
              "chaos-client-" + c);
      t.setDaemon(true);
      threads.add(t);
      t.start();
    }
  }

  /** Stops the workers, waits for them (bounded), then reads both registers into the history. */
  public synchronized void stopAndRead() {
    if (history == null) {
      throw new IllegalStateException("not started");
    }
    stopping.set(true);
    join();
    history.record(OpType.INVOKE, Op.READER, Fn.READ, Map.of());
    try {
      String fenced =
          cluster.storage().client().get(spec.resource()).map(StoredObject::valueAsUtf8).orElse("");
      history.record(
          OpType.OK,
          Op.READER,
          Fn.READ,
          Map.of(Fields.FENCED, fenced, Fields.CANARY, canary.read().value()));
    } catch (RuntimeException e) {
      history.record(OpType.INFO, Op.READER, Fn.READ, Map.of(Fields.ERROR, String.valueOf(e)));
    }
  }

  private void join() {
    long deadline = System.nanoTime() + JOIN_BOUND.toNanos();
    for (Thread t : threads) {
      try {
        t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
      if (t.isAlive()) {
        t.interrupt(); // a worker stuck past the bound: interrupt rather than hang the run
      }
    }
  }

  @Override
  public synchronized void close() {
    stopping.set(true);
    join();
    RuntimeException first = null;
    for (LockClient c : lockClients) {
      try {
        c.close();
      } catch (RuntimeException e) {
        if (first == null) {
          first = e;
        } else {
          first.addSuppressed(e);
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }
}
