package io.fencedlock.chaos.workload;

import io.fencedlock.chaos.client.ClientFleet;
import io.fencedlock.chaos.client.Completion;
import io.fencedlock.chaos.client.RecordingClient;
import io.fencedlock.chaos.history.Entries;
import io.fencedlock.chaos.history.Fields;
import io.fencedlock.chaos.history.Fn;
import io.fencedlock.chaos.history.OpType;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * One client's loop, as the harness drives it: for each {@link LeasePlan}, acquire, write the
 * fenced object (the client works first), write the canary, maybe extend, release. If the client's
 * process dies (killed by the nemesis, or for not answering) the lease dies with it: the worker
 * goes to its next plan, whose acquire starts a fresh process. Runs on its own thread until told to
 * stop; not thread-safe otherwise.
 */
final class Worker implements Runnable {
  private final int client;
  private final RecordingClient recording;
  private final ClientFleet fleet;
  private final WorkloadSpec spec;
  private final List<String> resources;
  private final long seed;
  private final BooleanSupplier stop;

  Worker(
      int client,
      RecordingClient recording,
      ClientFleet fleet,
      WorkloadSpec spec,
      List<String> resources,
      long seed,
      BooleanSupplier stop) {
    this.client = client;
    this.recording = recording;
    this.fleet = fleet;
    this.spec = spec;
    this.resources = resources;
    this.seed = seed;
    this.stop = stop;
  }

  @Override
  public void run() {
    for (long step = 0; !stop.getAsBoolean() && !Thread.currentThread().isInterrupted(); step++) {
      try {
        fleet.live(client); // a killed process is replaced before the op is invoked
      } catch (RuntimeException e) {
        System.err.println("client " + client + " could not be restarted: " + e);
        return;
      }
      lease(LeasePlan.of(seed, client, step, spec));
    }
  }

  private void lease(LeasePlan plan) {
    String resource = resources.get(plan.resource());
    Completion acquired =
        recording.call(
            Fn.ACQUIRE,
            Map.of(
                Fields.RESOURCE,
                resource,
                Fields.TTL_MILLIS,
                spec.ttl().toMillis(),
                Fields.MAX_WAIT_MILLIS,
                spec.maxWait().toMillis(),
                Fields.RENEW,
                plan.renew()));
    if (acquired.type() != OpType.OK) {
      return;
    }
    long token = ((Number) acquired.value().get(Fields.TOKEN)).longValue();
    String owner = (String) acquired.value().get(Fields.OWNER);
    String entry = Entries.entry(token, owner);
    Map<String, Object> lease =
        Map.of(Fields.RESOURCE, resource, Fields.TOKEN, token, Fields.OWNER, owner);
    if (!step(Fn.WRITE, lease, Fields.ENTRY, entry, Fields.WORK_MILLIS, spec.work().toMillis())) {
      return;
    }
    Object canaryRead = acquired.value().get(Fields.CANARY_READ);
    if (canaryRead != null
        && !step(Fn.CANARY, lease, Fields.ENTRY, entry, Fields.CANARY_READ, canaryRead)) {
      return;
    }
    if (plan.extend()
        && !step(Fn.EXTEND, lease, Fields.TTL_MILLIS, spec.ttl().toMillis(), "", "")) {
      return;
    }
    step(Fn.RELEASE, lease, "", "", "", "");
  }

  /** Runs one op of the lease; false if the client's process is gone (the lease with it). */
  private boolean step(
      Fn f, Map<String, Object> lease, String k1, Object v1, String k2, Object v2) {
    Map<String, Object> value = new HashMap<>(lease);
    if (!k1.isEmpty()) {
      value.put(k1, v1);
    }
    if (!k2.isEmpty()) {
      value.put(k2, v2);
    }
    Completion done = recording.call(f, value);
    return done.type() != OpType.INFO || fleet.current(client).isAlive();
  }
}
