package io.fencedlock.bench;

import io.lettuce.core.SetArgs;
import io.lettuce.core.RedisFuture;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The physical floor of a lock: {@code SET key owner NX PX ttl}, then {@code DEL key}, one
 * round trip each, sent to every node in parallel; the SET step is done at the {@code
 * needed}-th grant, the DEL step at the {@code releaseNeeded}-th reply. With one node this is
 * floor-1; with five nodes and 3/3, floor-N, the least any quorum lock without fencing can do;
 * with 3/5, a diagnostic showing what waiting for every node's delete costs. Not a real lock: DEL is not compare-and-delete
 * and a refused SET is not retried. Thread-safe.
 */
final class FloorSystem implements LockSystem {
  private final String name;
  private final LettuceConnections nodes;
  private final int needed;
  private final int releaseNeeded;

  FloorSystem(String name, List<String> uris, int needed, int releaseNeeded) {
    this.name = name;
    this.nodes = new LettuceConnections(uris);
    this.needed = needed;
    this.releaseNeeded = releaseNeeded;
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
  public Held acquire(String resource, Duration maxWait) {
    String owner = UUID.randomUUID().toString();
    SetArgs args = SetArgs.Builder.nx().px(BenchTiming.LEASE_TTL.toMillis());
    List<RedisFuture<String>> sets = new ArrayList<>();
    for (int i = 0; i < nodes.size(); i++) {
      sets.add(nodes.async(i).set(resource, owner, args));
    }
    if (!QuorumWait.await(sets, needed, "OK"::equals)) {
      release(resource); // undo partial grants, as a real lock would
      throw new NotGrantedException(name + ": " + resource + " is held");
    }
    return () -> release(resource);
  }

  private void release(String resource) {
    List<RedisFuture<Long>> dels = new ArrayList<>();
    for (int i = 0; i < nodes.size(); i++) {
      dels.add(nodes.async(i).del(resource));
    }
    QuorumWait.await(dels, releaseNeeded, deleted -> true);
  }

  @Override
  public void close() {
    nodes.close();
  }
}
