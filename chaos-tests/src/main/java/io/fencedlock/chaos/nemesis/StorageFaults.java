package io.fencedlock.chaos.nemesis;

import io.fencedlock.chaos.fixture.StorageProcess;
import io.fencedlock.chaos.history.Fields;
import io.fencedlock.chaos.history.Fn;
import io.fencedlock.chaos.history.HistoryRecorder;
import io.fencedlock.chaos.history.Op;
import io.fencedlock.storage.StoredObject;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Faults of the storage service's process: SIGKILL and restart on the same database (at once or at
 * heal), SIGSTOP until the heal, and, for the negative control, a restart with the database
 * deleted. Requests cut off by a kill, or stuck behind a pause past the client's timeout, end with
 * an unknown outcome: the writes they carried are INFO in the history. Thread-safe as {@link
 * StorageProcess}.
 */
public final class StorageFaults implements FaultApplier {
  private final StorageProcess storage;
  private final HistoryRecorder history;
  private final Supplier<List<String>> resources;

  /**
   * @param resources the current run's resources, whose highest tokens are read and recorded (by
   *     the {@link Op#OBSERVER}) after every restart
   */
  public StorageFaults(
      StorageProcess storage, HistoryRecorder history, Supplier<List<String>> resources) {
    this.storage = storage;
    this.history = history;
    this.resources = resources;
  }

  /** Records each resource's highest token as the restarted service reports it. */
  private void probe() {
    for (String r : resources.get()) {
      long token;
      try {
        token = storage.direct().get(r).map(StoredObject::token).orElse(-1L);
      } catch (RuntimeException e) {
        token = -2; // could not read: the checker reports it as unknown, not as lost
      }
      history.recordPair(
          Op.OBSERVER,
          Fn.OBSERVE,
          Map.of(
              Fields.OBSERVED, "storage-restart", Fields.RESOURCE, r, Fields.STORED_TOKEN, token));
    }
  }

  @Override
  public boolean handles(Fault fault) {
    return fault instanceof Fault.StorageFault;
  }

  @Override
  public String apply(int id, Fault fault) {
    Fault.StorageFault f = (Fault.StorageFault) fault;
    switch (f.action()) {
      case PAUSE -> storage.pause();
      case KILL -> {
        storage.kill();
        if (f.rejoin() == Fault.Rejoin.IMMEDIATE) {
          storage.restart();
          probe();
        }
      }
      case WIPE -> {
        if (f.rejoin() == Fault.Rejoin.IMMEDIATE) {
          storage.wipeAndRestart();
          probe();
        } else {
          storage.kill();
        }
      }
    }
    return "";
  }

  @Override
  public void heal(int id, Fault fault) {
    Fault.StorageFault f = (Fault.StorageFault) fault;
    boolean wasDown = !storage.isRunning();
    if (f.action() == Fault.StorageAction.WIPE && wasDown) {
      storage.wipeAndRestart();
    } else {
      storage.heal();
    }
    if (wasDown) {
      probe();
    }
  }

  @Override
  public void healAll() {
    storage.heal();
  }
}
