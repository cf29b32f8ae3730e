package io.fencedlock.chaos.workload;

import io.fencedlock.chaos.client.ClientArgs;
import io.fencedlock.chaos.client.ClientFleet;
import io.fencedlock.chaos.client.ClientProcess;
import io.fencedlock.chaos.client.Completion;
import io.fencedlock.chaos.client.OffsetWallClock;
import io.fencedlock.chaos.client.RecordingClient;
import io.fencedlock.chaos.fixture.ChaosCluster;
import io.fencedlock.chaos.fixture.FakeTime;
import io.fencedlock.chaos.history.Entries;
import io.fencedlock.chaos.history.Fields;
import io.fencedlock.chaos.history.Fn;
import io.fencedlock.chaos.history.HistoryRecorder;
import io.fencedlock.chaos.history.Op;
import io.fencedlock.chaos.history.OpType;
import io.fencedlock.storage.FencedStore;
import io.fencedlock.storage.StoredObject;
import io.fencedlock.testkit.support.TempDirs;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * The clients of a {@link WorkloadSpec}, each its own process ({@link ClientFleet}), against a
 * {@link ChaosCluster}: {@link #open()} starts them and warms them up once; then any number of
 * runs, each {@link #start} (one worker thread per client, recording into the run's history, on the
 * run's own resources) and {@link #stopAndRead()} (stop the workers, read every resource's fenced
 * object and canary directly from the store); {@link #close()} ends the processes. Thread-safe.
 */
public final class Workload implements AutoCloseable {
  private static final Duration JOIN_BOUND = Duration.ofSeconds(40);
  private static final Duration START_BOUND = Duration.ofSeconds(60);
  private static final Duration WARMUP_BOUND = Duration.ofSeconds(30);

  private final WorkloadSpec spec;
  private final ChaosCluster cluster;
  private final Path dir = TempDirs.create("fencedlock-chaos-clients");
  private ClientFleet fleet;
  private HistoryRecorder history;
  private List<String> resources = List.of();
  private final AtomicBoolean stopping = new AtomicBoolean();
  private final List<Thread> threads = new ArrayList<>();
  private final List<FakeTime> clocks = new ArrayList<>();

  public Workload(WorkloadSpec spec, ChaosCluster cluster) {
    this.spec = spec;
    this.cluster = cluster;
  }

  /** Starts every client process (in parallel) and lets each acquire once. */
  public synchronized void open() {
    List<ClientArgs> args = new ArrayList<>();
    List<Map<String, String>> env = new ArrayList<>();
    for (int c = 0; c < spec.clients(); c++) {
      args.add(
          new ClientArgs(
              c,
              cluster.urisOf(c),
              URI.create(cluster.storageUrlOf(c)),
              spec.nodeTimeout(),
              spec.maxLeaseTtl(),
              spec.storageTimeout(),
              spec.nodeInitCheck(),
              spec.tokenPrediction()));
      env.add(clockEnvironment(c));
    }
    fleet = new ClientFleet(args, env, dir, START_BOUND);
    fleet.start();
    for (int c = 0; c < spec.clients(); c++) {
      warmUp(fleet.current(c));
    }
  }

  private Map<String, String> clockEnvironment(int client) {
    if (!spec.clientClocks()) {
      return Map.of();
    }
    // The offset file FakeTime writes, read by the client's own wall clock (OffsetWallClock says
    // why not libfaketime for a JVM).
    Path file = dir.resolve("client-" + client + ".clock");
    clocks.add(FakeTime.offsetFile(file));
    return Map.of(OffsetWallClock.FILE_VARIABLE, file.toString());
  }

  /**
   * Client {@code client}'s wall clock, if the clients run on their own ({@link OffsetWallClock}).
   */
  public synchronized FakeTime clockOf(int client) {
    if (clocks.isEmpty()) {
      throw new IllegalStateException("the clients run on the machine's clock");
    }
    return clocks.get(client);
  }

  /**
   * Acquires once (bounded): the nodes are initialized, connections, scripts and subscriptions set
   * up and the JIT has seen the path, so a run starts from a steady state instead of measuring
   * start-up. Not recorded.
   */
  private void warmUp(ClientProcess client) {
    long deadline = System.nanoTime() + WARMUP_BOUND.toNanos();
    String resource = "chaos:warmup";
    while (System.nanoTime() < deadline) {
      Completion got =
          client.call(
              Fn.ACQUIRE,
              Map.of(
                  Fields.RESOURCE,
                  resource,
                  Fields.TTL_MILLIS,
                  1000L,
                  Fields.MAX_WAIT_MILLIS,
                  500L),
              spec.opTimeout());
      if (got.type() == OpType.OK) {
        client.call(Fn.RELEASE, Map.of(Fields.RESOURCE, resource), spec.opTimeout());
        return;
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
    }
    throw new IllegalStateException(
        "the cluster did not grant "
            + client
            + " a lock within "
            + WARMUP_BOUND
            + " before the run");
  }

  public synchronized ClientFleet fleet() {
    return fleet;
  }

  /** The current run's resources (lock names and object keys). */
  public synchronized List<String> resources() {
    return resources;
  }

  /**
   * Starts one worker per client on {@code runResources} (fresh names for each run), recording into
   * {@code recorder}; the ops follow {@code seed}.
   */
  public synchronized void start(HistoryRecorder recorder, List<String> runResources, long seed) {
    if (fleet == null) {
      throw new IllegalStateException("open() first");
    }
    history = recorder;
    resources = List.copyOf(runResources);
    stopping.set(false);
    threads.clear();
    fleet.onObservation((client, value) -> observe(recorder, client, value));
    for (int c = 0; c < spec.clients(); c++) {
      RecordingClient recording =
          new RecordingClient(
              new RemoteClient(fleet, c, spec.opTimeout()), recorder, c, spec.clients());
      Thread t =
          new Thread(
              new Worker(c, recording, fleet, spec, resources, seed, stopping::get),
              "chaos-worker-" + c);
      t.setDaemon(true);
      threads.add(t);
      t.start();
    }
  }

  private static void observe(HistoryRecorder recorder, int client, Map<String, Object> value) {
    Map<String, Object> v = new HashMap<>(value);
    v.put(Fields.CLIENT, (long) client);
    recorder.recordPair(Op.OBSERVER, Fn.OBSERVE, v);
  }

  /** Stops the workers, waits for them (bounded), then reads every resource into the history. */
  public synchronized void stopAndRead() {
    if (history == null) {
      throw new IllegalStateException("not started");
    }
    stopping.set(true);
    join();
    fleet.onObservation((c, v) -> {});
    FencedStore store = cluster.storage().direct();
    for (String resource : resources) {
      history.record(OpType.INVOKE, Op.READER, Fn.READ, Map.of(Fields.RESOURCE, resource));
      try {
        Map<String, Object> read = new HashMap<>();
        read.put(Fields.RESOURCE, resource);
        Optional<StoredObject> fenced = store.get(resource);
        read.put(Fields.FENCED, fenced.map(StoredObject::valueAsUtf8).orElse(""));
        read.put(Fields.STORED_TOKEN, fenced.map(StoredObject::token).orElse(-1L));
        read.put(Fields.CANARY, value(store, Entries.canaryKey(resource)));
        history.record(OpType.OK, Op.READER, Fn.READ, read);
      } catch (RuntimeException e) {
        history.record(
            OpType.INFO,
            Op.READER,
            Fn.READ,
            Map.of(Fields.RESOURCE, resource, Fields.ERROR, String.valueOf(e)));
      }
    }
  }

  private static String value(FencedStore store, String key) {
    return store.get(key).map(StoredObject::valueAsUtf8).orElse("");
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
    try {
      if (fleet != null) {
        fleet.close();
      }
    } finally {
      TempDirs.deleteRecursively(dir);
    }
  }
}
