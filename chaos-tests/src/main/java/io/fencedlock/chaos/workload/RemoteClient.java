package io.fencedlock.chaos.workload;

import io.fencedlock.chaos.client.Client;
import io.fencedlock.chaos.client.ClientFleet;
import io.fencedlock.chaos.client.Completion;
import io.fencedlock.chaos.history.Fn;
import java.time.Duration;
import java.util.Map;

/**
 * A {@link Client} whose ops run in a client process of the fleet: its current process, as it is (a
 * stopped process answers once continued; a dead one makes the op INFO). Not thread-safe: one
 * worker.
 */
final class RemoteClient implements Client {
  private final ClientFleet fleet;
  private final int client;
  private final Duration timeout;

  RemoteClient(ClientFleet fleet, int client, Duration timeout) {
    this.fleet = fleet;
    this.client = client;
    this.timeout = timeout;
  }

  @Override
  public Completion invoke(Fn f, Map<String, Object> value) {
    return fleet.current(client).call(f, value, timeout);
  }

  @Override
  public void close() {
    // the fleet owns the processes
  }
}
