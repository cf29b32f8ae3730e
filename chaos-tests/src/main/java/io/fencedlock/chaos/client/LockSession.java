package io.fencedlock.chaos.client;

import io.fencedlock.chaos.history.Entries;
import io.fencedlock.chaos.history.Fields;
import io.fencedlock.chaos.history.Fn;
import io.fencedlock.redlock.Lease;
import io.fencedlock.redlock.LockAcquisitionException;
import io.fencedlock.redlock.Redlock;
import io.fencedlock.redlock.Renewal;
import io.fencedlock.storage.FencedStore;
import io.fencedlock.storage.StoredObject;
import io.fencedlock.storage.WriteResult;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What a client process does for each op, against its own {@link Redlock} and the storage service
 * (through its own proxy). Keeps the current lease of each resource between ops, like a process
 * that acquires, works and releases. Writes are read-modify-writes that append an entry: on the
 * fenced object "fence on first touch" (fence, read, put, with the read reported), on the unfenced
 * canary a read right after the acquire and a put later, with a token and owner that every canary
 * write shares (the store then accepts each of them, as a store without fencing would). Not
 * thread-safe: one op at a time.
 */
final class LockSession {
  /** The canary's writes all use this token and owner, which the store always accepts again. */
  static final long CANARY_TOKEN = 0;

  static final String CANARY_OWNER = "canary";

  private final Redlock redlock;
  private final FencedStore storage;
  private final Checkpoints points;
  private final Map<String, Lease> leases = new HashMap<>();

  LockSession(Redlock redlock, FencedStore storage, Checkpoints points) {
    this.redlock = redlock;
    this.storage = storage;
    this.points = points;
  }

  Completion invoke(Fn f, Map<String, Object> value) {
    String resource = Wire.string(value, Fields.RESOURCE);
    return switch (f) {
      case ACQUIRE -> acquire(resource, value);
      case WRITE -> write(resource, value);
      case CANARY -> canary(resource, value);
      case EXTEND -> extend(resource, value);
      case RELEASE -> release(resource);
      default -> throw new IllegalArgumentException("a lock client cannot " + f);
    };
  }

  private Completion acquire(String resource, Map<String, Object> value) {
    Lease lease;
    try {
      lease =
          redlock.acquire(
              resource,
              Duration.ofMillis(Wire.number(value, Fields.TTL_MILLIS, 1000)),
              Duration.ofMillis(Wire.number(value, Fields.MAX_WAIT_MILLIS, 500)));
    } catch (LockAcquisitionException e) {
      // The library released every node before throwing: a definite failure.
      return Completion.fail(Map.of(Fields.ERROR, String.valueOf(e.getMessage())));
    }
    if (Boolean.TRUE.equals(value.get(Fields.RENEW))) {
      lease = lease.keepAlive(Renewal.defaults().maxHold(Duration.ofMinutes(1)));
    }
    Lease previous = leases.put(resource, lease);
    if (previous != null) {
      previous.close(); // the harness lost track of it (an op that timed out): let it go
    }
    Map<String, Object> ok = new HashMap<>(validity(lease));
    ok.put(Fields.TOKEN, lease.fencingToken());
    ok.put(Fields.OWNER, lease.ownerId());
    try {
      ok.put(
          Fields.CANARY_READ,
          storage.get(Entries.canaryKey(resource)).map(StoredObject::valueAsUtf8).orElse(""));
    } catch (RuntimeException e) {
      ok.put("canaryReadError", String.valueOf(e)); // no read, so this lease writes no canary
    }
    return Completion.ok(ok);
  }

  private static Map<String, Object> validity(Lease lease) {
    long now = System.nanoTime();
    long left = lease.remainingValidity().toNanos();
    return lease.isValid() && left > 0 ? Map.of(Fields.VALID_UNTIL_ABSOLUTE, now + left) : Map.of();
  }

  private Completion write(String resource, Map<String, Object> value) {
    long token = Wire.number(value, Fields.TOKEN, -1);
    String owner = Wire.string(value, Fields.OWNER);
    work(Wire.number(value, Fields.WORK_MILLIS, 0));
    WriteResult fenced;
    try {
      fenced = storage.fence(resource, token, owner);
    } catch (RuntimeException e) {
      // The put was never sent, so nothing was appended, whatever the fence did.
      return Completion.fail(Map.of(Fields.STEP, "fence", Fields.ERROR, String.valueOf(e)));
    }
    if (fenced instanceof WriteResult.Rejected r) {
      return rejected("fence", r, null);
    }
    points.at(Point.AFTER_FENCE);
    String read;
    try {
      read = storage.get(resource).map(StoredObject::valueAsUtf8).orElse("");
    } catch (RuntimeException e) {
      return Completion.fail(Map.of(Fields.STEP, "read", Fields.ERROR, String.valueOf(e)));
    }
    String next = Entries.append(read, Wire.string(value, Fields.ENTRY));
    Map<String, Object> done = new HashMap<>(leaseValidity(resource));
    done.put(Fields.READ, read);
    done.put(Fields.STEP, "put");
    WriteResult put;
    try {
      put = storage.put(resource, next.getBytes(StandardCharsets.UTF_8), token, owner);
    } catch (RuntimeException e) {
      done.put(Fields.ERROR, String.valueOf(e));
      return new Completion(io.fencedlock.chaos.history.OpType.INFO, done);
    }
    if (put instanceof WriteResult.Rejected r) {
      return rejected("put", r, read);
    }
    done.put(Fields.TOKEN, token);
    return Completion.ok(done);
  }

  private Map<String, Object> leaseValidity(String resource) {
    Lease lease = leases.get(resource);
    return lease == null ? Map.of() : validity(lease);
  }

  private static Completion rejected(String step, WriteResult.Rejected r, String read) {
    Map<String, Object> v = new HashMap<>();
    v.put(Fields.CURRENT_TOKEN, r.currentToken());
    v.put("reason", r.reason().name());
    v.put(Fields.STEP, step);
    if (read != null) {
      v.put(Fields.READ, read);
    }
    return Completion.fail(v);
  }

  /** The holder's work under the lock, which takes time: what pauses and clock steps cut into. */
  private static void work(long millis) {
    try {
      TimeUnit.MILLISECONDS.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // the process is stopping; the write still goes out
    }
  }

  private Completion canary(String resource, Map<String, Object> value) {
    String read = Wire.string(value, Fields.CANARY_READ);
    String next = Entries.append(read, Wire.string(value, Fields.ENTRY));
    Map<String, Object> done = new HashMap<>(leaseValidity(resource));
    done.put(Fields.READ, read);
    try {
      storage.put(
          Entries.canaryKey(resource),
          next.getBytes(StandardCharsets.UTF_8),
          CANARY_TOKEN,
          CANARY_OWNER);
    } catch (RuntimeException e) {
      done.put(Fields.ERROR, String.valueOf(e));
      return new Completion(io.fencedlock.chaos.history.OpType.INFO, done);
    }
    return Completion.ok(done);
  }

  private Completion extend(String resource, Map<String, Object> value) {
    Lease lease = leases.get(resource);
    if (lease == null) {
      return Completion.fail(Map.of(Fields.ERROR, "no lease of " + resource));
    }
    points.extending(true);
    try {
      boolean extended =
          lease.extend(Duration.ofMillis(Wire.number(value, Fields.TTL_MILLIS, 1000)));
      Map<String, Object> done = new HashMap<>(validity(lease));
      done.put(Fields.EXTENDED, extended);
      return Completion.ok(done);
    } catch (RuntimeException e) {
      // Expired or lost: the library sent nothing, or nothing that could lengthen a foreign key.
      return Completion.fail(Map.of(Fields.ERROR, String.valueOf(e)));
    } finally {
      points.extending(false);
    }
  }

  private Completion release(String resource) {
    Lease lease = leases.remove(resource);
    if (lease == null) {
      return Completion.fail(Map.of(Fields.ERROR, "no lease of " + resource));
    }
    return Completion.ok(Map.of(Fields.WAS_VALID, lease.release()));
  }

  /** Releases every lease still held. */
  void releaseAll() {
    leases.values().forEach(Lease::close);
    leases.clear();
  }
}
