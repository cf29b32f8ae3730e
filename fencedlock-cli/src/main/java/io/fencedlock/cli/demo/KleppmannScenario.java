package io.fencedlock.cli.demo;

import io.fencedlock.cli.demo.RunResult.Mode;
import io.fencedlock.cli.demo.TimelineEvent.Acquired;
import io.fencedlock.cli.demo.TimelineEvent.LeaseRanOut;
import io.fencedlock.cli.demo.TimelineEvent.PauseBegan;
import io.fencedlock.cli.demo.TimelineEvent.PauseEnded;
import io.fencedlock.cli.demo.TimelineEvent.Read;
import io.fencedlock.cli.demo.TimelineEvent.Released;
import io.fencedlock.cli.demo.TimelineEvent.Wrote;
import io.fencedlock.cli.demo.WriteTarget.ReadOutcome;
import io.fencedlock.cli.demo.WriteTarget.WriteOutcome;
import io.fencedlock.redlock.Lease;
import io.fencedlock.redlock.LockAcquisitionException;
import io.fencedlock.redlock.Redlock;
import io.fencedlock.redlock.RedlockConfig;
import io.fencedlock.storage.client.FencedStorageClient;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kleppmann's "how to do distributed locking" scenario, played for real against Redis nodes and the
 * storage service: client 1 acquires the lock, stalls (a simulated GC pause) until its lease has
 * run out, client 2 acquires and writes, then client 1 wakes up and writes with its old lease. The
 * same steps run twice: fenced (the storage service checks tokens, the stale write is rejected) and
 * unfenced (a plain register, client 2's update is lost).
 *
 * <p>Each client has its own {@link Redlock}, as two processes would. Thread-safe (it holds only
 * immutable settings), but runs are meant one at a time: concurrent runs would contend for the same
 * lock.
 */
final class KleppmannScenario {
  private static final Logger log = LoggerFactory.getLogger(KleppmannScenario.class);

  /** Short, so the demo is quick, yet far above the drift allowance and a busy machine's stalls. */
  static final Duration DEFAULT_TTL = Duration.ofSeconds(2);

  static final String CLIENT_1 = "client 1";
  static final String CLIENT_2 = "client 2";
  static final String READER = "reader";
  static final String KEY = "shared-file";
  static final String CLIENT_1_VALUE = "client 1 was here";
  static final String CLIENT_2_VALUE = "client 2 was here";

  /** Client 2 waits out client 1's key, which Redis keeps slightly past the lease's validity. */
  private static final Duration ACQUIRE_WAIT = Duration.ofSeconds(5);

  /**
   * Ten times the library's default: the demo runs on laptops and busy CI machines, where a node
   * that misses the 50 ms default while being initialized is excluded for a minute.
   */
  private static final Duration NODE_TIMEOUT = Duration.ofMillis(500);

  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);

  /**
   * Every demo lease is {@link #DEFAULT_TTL}-sized, so a node that looks amnesic (on a busy
   * machine, one that missed its initialization) is re-admitted after seconds, not a minute.
   */
  private static final Duration MAX_LEASE_TTL = Duration.ofSeconds(5);

  private static final int WARM_UP_ATTEMPTS = 3;

  private final List<String> nodeUris;
  private final URI storageUrl;
  private final Duration ttl;

  KleppmannScenario(List<String> nodeUris, URI storageUrl, Duration ttl) {
    this.nodeUris = List.copyOf(nodeUris);
    this.storageUrl = Objects.requireNonNull(storageUrl, "storageUrl");
    this.ttl = Objects.requireNonNull(ttl, "ttl");
  }

  /**
   * Plays the fenced run, then the unfenced one, handing each to {@code afterEachRun} as soon as it
   * is done (to show progress).
   *
   * @throws io.fencedlock.redlock.RedlockException if a client cannot acquire the lock
   * @throws io.fencedlock.storage.client.StorageClientException if the storage service fails
   * @throws IllegalStateException if a lease outlives its pause bound or the thread is interrupted
   */
  DemoResult run(Consumer<RunResult> afterEachRun) {
    FencedStorageClient storage = FencedStorageClient.create(storageUrl);
    warmUp(storage);
    RunResult fenced = play(Mode.FENCED, new FencedTarget(storage, KEY));
    afterEachRun.accept(fenced);
    RunResult unfenced = play(Mode.UNFENCED, new PlainRegister(KEY));
    afterEachRun.accept(unfenced);
    return new DemoResult(fenced, unfenced, nodeUris, storageUrl.toString());
  }

  /**
   * The first fenced client initializes brand-new nodes, and the first requests load classes and
   * open connections; doing that once up front keeps it out of the runs' timelines. On a busy
   * machine the first client may not hear from all five nodes in time to initialize them, so each
   * retry uses a new client, which probes them again.
   */
  private void warmUp(FencedStorageClient storage) {
    for (int attempt = 1; ; attempt++) {
      try (Redlock redlock = Redlock.create(config(true))) {
        redlock.acquire("demo:warm-up", ttl, ACQUIRE_WAIT).release();
        break;
      } catch (LockAcquisitionException e) {
        if (attempt == WARM_UP_ATTEMPTS) {
          throw e;
        }
        log.warn(
            "warm-up acquire {} of {} failed, retrying with a new client: {}",
            attempt,
            WARM_UP_ATTEMPTS,
            e.getMessage());
      }
    }
    if (!storage.isHealthy()) {
      throw new IllegalStateException("the storage service at " + storageUrl + " is not healthy");
    }
  }

  private RedlockConfig config(boolean fencing) {
    return RedlockConfig.builder()
        .nodes(nodeUris)
        .fencing(fencing)
        .nodeTimeout(NODE_TIMEOUT)
        .connectTimeout(CONNECT_TIMEOUT)
        .maxLeaseTtl(MAX_LEASE_TTL)
        .build();
  }

  private RunResult play(Mode mode, WriteTarget target) {
    RedlockConfig config = config(mode == Mode.FENCED);
    try (Redlock client1 = Redlock.create(config);
        Redlock client2 = Redlock.create(config)) {
      return new Run(mode, target, "demo:" + mode.label() + ":" + target.key())
          .play(client1, client2);
    }
  }

  /** One run's steps and its timeline. Confined to the calling thread. */
  private final class Run {
    private final Mode mode;
    private final WriteTarget target;
    private final String resource;
    private final Timeline timeline = Timeline.startNow();

    Run(Mode mode, WriteTarget target, String resource) {
      this.mode = mode;
      this.target = target;
      this.resource = resource;
    }

    RunResult play(Redlock client1, Redlock client2) {
      Lease lease1 = acquire(client1, CLIENT_1);
      try {
        long pauseStart = timeline.nowMillis();
        timeline.add(new PauseBegan(pauseStart, CLIENT_1));
        // Twice the TTL: the validity is shorter than the TTL, so this bound is never the limit.
        GcPause.untilLeaseRunsOut(lease1, ttl.multipliedBy(2));
        timeline.add(new LeaseRanOut(timeline.nowMillis(), CLIENT_1));
        Lease lease2 = acquire(client2, CLIENT_2);
        WriteOutcome write2;
        try {
          write2 = write(lease2, CLIENT_2, CLIENT_2_VALUE);
        } finally {
          release(lease2, CLIENT_2);
        }
        long wake = timeline.nowMillis();
        timeline.add(new PauseEnded(wake, CLIENT_1, wake - pauseStart));
        WriteOutcome write1 = write(lease1, CLIENT_1, CLIENT_1_VALUE);
        release(lease1, CLIENT_1);
        Optional<String> finalValue = readFinal();
        return new RunResult(
            mode,
            timeline.events(),
            token(lease1),
            token(lease2),
            CLIENT_1_VALUE,
            CLIENT_2_VALUE,
            write2,
            write1,
            finalValue);
      } finally {
        lease1.close(); // idempotent; only matters when a step above threw
      }
    }

    private Lease acquire(Redlock redlock, String client) {
      Lease lease = redlock.acquire(resource, ttl, ACQUIRE_WAIT);
      timeline.add(
          new Acquired(
              timeline.nowMillis(),
              client,
              resource,
              token(lease),
              lease.remainingValidity().toMillis()));
      return lease;
    }

    private WriteOutcome write(Lease lease, String client, String value) {
      WriteOutcome outcome = target.write(lease, value);
      timeline.add(
          new Wrote(
              timeline.nowMillis(),
              client,
              target.key(),
              value,
              token(lease),
              outcome.accepted(),
              outcome.detail()));
      return outcome;
    }

    private void release(Lease lease, String client) {
      boolean wasValid = lease.release();
      timeline.add(new Released(timeline.nowMillis(), client, wasValid));
    }

    private Optional<String> readFinal() {
      Optional<ReadOutcome> read = target.read();
      timeline.add(
          new Read(
              timeline.nowMillis(),
              READER,
              target.key(),
              read.map(ReadOutcome::value).orElse("(nothing)"),
              read.map(ReadOutcome::detail).orElse("never written")));
      return read.map(ReadOutcome::value);
    }
  }

  private static OptionalLong token(Lease lease) {
    return lease.isFenced() ? OptionalLong.of(lease.fencingToken()) : OptionalLong.empty();
  }
}
