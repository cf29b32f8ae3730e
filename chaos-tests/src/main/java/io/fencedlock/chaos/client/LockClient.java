package io.fencedlock.chaos.client;

import io.fencedlock.chaos.history.Entries;
import io.fencedlock.chaos.history.Fields;
import io.fencedlock.chaos.history.Fn;
import io.fencedlock.redlock.Lease;
import io.fencedlock.redlock.LockAcquisitionException;
import io.fencedlock.redlock.Redlock;
import io.fencedlock.storage.StoredObject;
import io.fencedlock.storage.WriteResult;
import io.fencedlock.storage.client.FencedStorageClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One lock client: its own {@link Redlock} (over its own proxies), the shared fenced storage
 * service and the shared canary. Keeps the current lease between operations, like a process that
 * acquires, works and releases. Writes are read-modify-writes that append an entry: on the fenced
 * object "fence on first touch" (fence, read, put), on the canary read at acquire time and write
 * later without any check. Not thread-safe: one worker thread.
 */
public final class LockClient implements Client {
  private final Redlock redlock;
  private final FencedStorageClient storage;
  private final CanaryRegister canary;
  private final String resource;
  private final Duration ttl;
  private final Duration maxWait;
  private Lease lease;
  private CanaryRegister.Snapshot canaryRead;

  public LockClient(
      Redlock redlock,
      FencedStorageClient storage,
      CanaryRegister canary,
      String resource,
      Duration ttl,
      Duration maxWait) {
    this.redlock = redlock;
    this.storage = storage;
    this.canary = canary;
    this.resource = resource;
    this.ttl = ttl;
    this.maxWait = maxWait;
  }

  @Override
  public Completion invoke(Fn f, Map<String, Object> value) {
    return switch (f) {
      case ACQUIRE -> acquire();
      case PAUSE -> stall(((Number) value.get(Fields.MILLIS)).longValue());
      case WRITE -> writeFenced(value);
      case CANARY -> writeCanary(value);
      case RELEASE -> release();
      default -> throw new IllegalArgumentException("a lock client cannot " + f);
    };
  }

  private Completion acquire() {
    try {
      lease = redlock.acquire(resource, ttl, maxWait);
    } catch (LockAcquisitionException e) {
      // The library released every node before throwing: a definite failure.
      return Completion.fail(Map.of(Fields.ERROR, e.getMessage()));
    }
    long now = System.nanoTime();
    long validity = lease.remainingValidity().toNanos();
    canaryRead = canary.read();
    return Completion.ok(
        Map.of(
            Fields.TOKEN,
            lease.fencingToken(),
            Fields.OWNER,
            lease.ownerId(),
            Fields.VALIDITY_NANOS,
            validity,
            Fields.VALID_UNTIL_ABSOLUTE,
            now + validity,
            Fields.READ_VERSION,
            canaryRead.version()));
  }

  /** The modelled GC pause: the holder does nothing for a while, its lease may run out. */
  private Completion stall(long millis) {
    try {
      TimeUnit.MILLISECONDS.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while stalled", e);
    }
    return Completion.ok(Map.of(Fields.MILLIS, millis));
  }

  private Completion writeFenced(Map<String, Object> value) {
    long token = ((Number) value.get(Fields.TOKEN)).longValue();
    String owner = (String) value.get(Fields.OWNER);
    WriteResult fenced = storage.fence(resource, token, owner);
    if (fenced instanceof WriteResult.Rejected r) {
      return rejected("fence", r);
    }
    String old = storage.get(resource).map(StoredObject::valueAsUtf8).orElse("");
    String next = Entries.append(old, (String) value.get(Fields.ENTRY));
    WriteResult put = storage.put(resource, next.getBytes(StandardCharsets.UTF_8), token, owner);
    return put instanceof WriteResult.Rejected r
        ? rejected("put", r)
        : Completion.ok(Map.of(Fields.TOKEN, token));
  }

  private static Completion rejected(String step, WriteResult.Rejected r) {
    return Completion.fail(
        Map.of(Fields.CURRENT_TOKEN, r.currentToken(), "reason", r.reason().name(), "step", step));
  }

  private Completion writeCanary(Map<String, Object> value) {
    if (canaryRead == null) {
      throw new IllegalStateException("canary write without a read under a lease");
    }
    String next = Entries.append(canaryRead.value(), (String) value.get(Fields.ENTRY));
    CanaryRegister.Snapshot old =
        canary.write(next, ((Number) value.get(Fields.TOKEN)).longValue());
    canaryRead = null;
    return Completion.ok(
        Map.of(Fields.OVERWROTE_VERSION, old.version(), Fields.OVERWROTE_TOKEN, old.token()));
  }

  private Completion release() {
    if (lease == null) {
      throw new IllegalStateException("release without a lease");
    }
    boolean wasValid = lease.release();
    lease = null;
    return Completion.ok(Map.of(Fields.WAS_VALID, wasValid));
  }

  /** Releases any lease still held and closes the Redlock client. */
  @Override
  public void close() {
    try {
      if (lease != null) {
        lease.close();
      }
    } finally {
      redlock.close();
    }
  }
}
