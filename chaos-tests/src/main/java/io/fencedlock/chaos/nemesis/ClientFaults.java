package io.fencedlock.chaos.nemesis;

import io.fencedlock.chaos.client.ClientFleet;
import io.fencedlock.chaos.client.ClientProcess;
import io.fencedlock.chaos.client.Point;
import io.fencedlock.chaos.history.Fields;
import io.fencedlock.chaos.history.Fn;
import io.fencedlock.chaos.history.HistoryRecorder;
import io.fencedlock.chaos.history.Op;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Pauses (SIGSTOP, then SIGCONT) and kills (SIGKILL) client processes: at once, or armed at a
 * targeted {@link Point} that the client reports when it gets there, so the signal lands exactly
 * between the phases of an acquire, between a fence and its put, in a release or in a renewal.
 * Every signal is recorded by the {@link Op#TRIGGER} process with the point where it landed. A
 * targeted fault whose point is not reached while it lasts is disarmed at its heal (and shows as
 * not hit). Thread-safe.
 */
public final class ClientFaults implements FaultApplier, ClientFleet.PointHandler {
  private final ClientFleet fleet;
  private final HistoryRecorder history;
  private final ScheduledExecutorService timers =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "client-fault-timers");
            t.setDaemon(true);
            return t;
          });
  private final Map<Integer, Armed> armed = new HashMap<>(); // by client; guarded by this
  private final Map<Integer, ClientProcess> stopped = new HashMap<>(); // guarded by this

  private record Armed(int id, Fault.ClientFault fault) {}

  public ClientFaults(ClientFleet fleet, HistoryRecorder history) {
    this.fleet = fleet;
    this.history = history;
    fleet.onPoint(this);
  }

  @Override
  public boolean handles(Fault fault) {
    return fault instanceof Fault.ClientFault;
  }

  @Override
  public String apply(int id, Fault fault) {
    Fault.ClientFault f = (Fault.ClientFault) fault;
    if (f.point() == Point.ANY) {
      act(id, f, fleet.current(f.client()), Point.ANY);
      return "";
    }
    synchronized (this) {
      armed.put(f.client(), new Armed(id, f));
    }
    ClientProcess p = fleet.current(f.client());
    if (p.isAlive()) {
      p.arm(f.point());
    }
    return "armed at " + f.point().wireName();
  }

  /** A client reached a point: if its fault is armed there, signal it, then let it go. */
  @Override
  public void reached(int client, ClientProcess process, Point point) {
    Armed a;
    synchronized (this) {
      a = armed.get(client);
      if (a != null && a.fault().point() == point) {
        armed.remove(client);
      } else {
        a = null;
      }
    }
    try {
      if (a != null) {
        act(a.id(), a.fault(), process, point);
      }
    } finally {
      if (process.isAlive()) {
        process.go(); // a stopped process reads it once continued
      }
    }
  }

  private void act(int id, Fault.ClientFault f, ClientProcess p, Point point) {
    if (!p.isAlive()) {
      record(id, f, p, point, "none: the process was not running");
      return;
    }
    if (f.action() == Fault.ClientAction.KILL) {
      p.kill();
      record(id, f, p, point, "KILL");
      return;
    }
    p.stop();
    synchronized (this) {
      stopped.put(f.client(), p);
    }
    record(id, f, p, point, "STOP");
    timers.schedule(() -> resume(id, f, p, point), f.millis(), TimeUnit.MILLISECONDS);
  }

  private void resume(int id, Fault.ClientFault f, ClientProcess p, Point point) {
    synchronized (this) {
      if (stopped.get(f.client()) != p) {
        return; // the final heal continued it already
      }
      stopped.remove(f.client());
    }
    p.cont();
    record(id, f, p, point, "CONT");
  }

  private void record(int id, Fault.ClientFault f, ClientProcess p, Point point, String signal) {
    Map<String, Object> v = new HashMap<>();
    v.put(Fields.CLIENT, (long) f.client());
    v.put(Fields.SIGNAL, signal);
    v.put(Fields.POINT, point.wireName());
    v.put(Fields.FAULT_ID, (long) id);
    v.put(Fields.KIND, f.kind());
    v.put("pid", p.pid());
    history.recordPair(Op.TRIGGER, Fn.SIGNAL, v);
  }

  /** Disarms a targeted fault not reached while it lasted; a pause under way runs to its end. */
  @Override
  public void heal(int id, Fault fault) {
    Fault.ClientFault f = (Fault.ClientFault) fault;
    boolean wasArmed;
    synchronized (this) {
      Armed a = armed.get(f.client());
      wasArmed = a != null && a.id() == id;
      if (wasArmed) {
        armed.remove(f.client());
      }
    }
    ClientProcess p = fleet.current(f.client());
    if (wasArmed && p.isAlive()) {
      p.disarm();
    }
  }

  /** Disarms every client and continues every stopped one. */
  @Override
  public void healAll() {
    Map<Integer, ClientProcess> toContinue;
    synchronized (this) {
      armed.clear();
      toContinue = new HashMap<>(stopped);
      stopped.clear();
    }
    for (int c = 0; c < fleet.size(); c++) {
      ClientProcess p = fleet.current(c);
      if (p.isAlive()) {
        p.disarm();
      }
    }
    toContinue.values().forEach(ClientProcess::cont);
  }

  /** Stops the timers; call after the final heal. */
  public void close() {
    timers.shutdownNow();
    fleet.onPoint(null);
  }
}
