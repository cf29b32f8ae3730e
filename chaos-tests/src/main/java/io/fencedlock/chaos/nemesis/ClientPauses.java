package io.fencedlock.chaos.nemesis;

import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Armed holder stalls, one slot per client: the nemesis arms a stall, the client's worker takes it
 * right after its next successful acquire and stalls before writing, as a process would in a long
 * GC pause. Thread-safe.
 */
public final class ClientPauses implements FaultApplier {
  private final ConcurrentMap<Integer, Long> armed = new ConcurrentHashMap<>();

  @Override
  public boolean handles(Fault fault) {
    return fault instanceof Fault.ClientPause;
  }

  @Override
  public void apply(int id, Fault fault) {
    Fault.ClientPause p = (Fault.ClientPause) fault;
    armed.put(p.client(), p.millis());
  }

  /** Takes the client's armed stall, if any, disarming it. */
  public OptionalLong take(int client) {
    Long millis = armed.remove(client);
    return millis == null ? OptionalLong.empty() : OptionalLong.of(millis);
  }

  @Override
  public void heal(int id, Fault fault) {
    // An unused stall expires with its fault; a stall in progress runs to its end by design.
    armed.remove(((Fault.ClientPause) fault).client());
  }

  @Override
  public void healAll() {
    armed.clear();
  }
}
