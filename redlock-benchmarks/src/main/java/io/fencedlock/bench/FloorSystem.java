package io.fencedlock.bench;

import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * The physical floor of a lock: {@code SET key owner NX PX ttl}, then {@code DEL key}, one round
 * trip each, sent to every node in parallel; the SET step is done at the {@code needed}-th grant,
 * the DEL step at the {@code needed}-th reply. With one node this is floor-1; with five nodes and
 * 3, floor-N, the least any quorum lock without fencing can do. Not a real lock: DEL is not
 * compare-and-delete and a refused SET is not retried. With {@code compareAndDelete}, the DEL step
 * is instead the smallest compare-and-delete script (GET, compare, DEL), as any lock that must not
 * delete a successor's key needs: a diagnostic separating what that costs from the client's own
 * overhead. Thread-safe.
 */
final class FloorSystem implements LockSystem {
  private final String name;
  private final LettuceConnections nodes;
  private final int needed;

  /** The compare-and-delete script's SHA-1, or null to release with DEL. */
  private final @Nullable String compareAndDelete;

  /** The only scenario a diagnostic variant takes part in, or null for every one. */
  private final @Nullable String onlyScenario;

  private static final String COMPARE_AND_DELETE =
      "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return"
          + " 0";

  FloorSystem(String name, List<String> uris, int needed) {
    this(name, uris, needed, false, null);
  }

  /** A diagnostic variant, measured only in {@code onlyScenario} (null: every scenario). */
  FloorSystem(
      String name,
      List<String> uris,
      int needed,
      boolean compareAndDelete,
      @Nullable String onlyScenario) {
    this.name = name;
    this.nodes = new LettuceConnections(uris);
    this.needed = needed;
    this.compareAndDelete = compareAndDelete ? nodes.loadEverywhere(COMPARE_AND_DELETE) : null;
    this.onlyScenario = onlyScenario;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public boolean canWait() {
    return false;
  }

  @Override
  public boolean takesPart(String scenarioId) {
    return onlyScenario == null || onlyScenario.equals(scenarioId);
  }

  @Override
  public Held acquire(String resource, Duration maxWait) {
    String owner = UUID.randomUUID().toString();
    SetArgs args = SetArgs.Builder.nx().px(BenchTiming.LEASE_TTL.toMillis());
    List<RedisFuture<String>> sets = new ArrayList<>();
    for (int i = 0; i < nodes.size(); i++) {
      sets.add(nodes.async(i).set(resource, owner, args));
    }
    if (!QuorumWait.await(sets, needed, "OK"::equals)) {
      release(resource, owner); // undo partial grants, as a real lock would
      throw new NotGrantedException(name + ": " + resource + " is held");
    }
    return () -> release(resource, owner);
  }

  private void release(String resource, String owner) {
    List<RedisFuture<Long>> dels = new ArrayList<>();
    for (int i = 0; i < nodes.size(); i++) {
      dels.add(
          compareAndDelete == null
              ? nodes.async(i).del(resource)
              : nodes
                  .async(i)
                  .evalsha(
                      compareAndDelete, ScriptOutputType.INTEGER, new String[] {resource}, owner));
    }
    QuorumWait.await(dels, needed, deleted -> true);
  }

  @Override
  public void close() {
    nodes.close();
  }
}
