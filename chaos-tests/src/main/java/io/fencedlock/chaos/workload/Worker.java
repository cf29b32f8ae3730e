package io.fencedlock.chaos.workload;

import io.fencedlock.chaos.client.Completion;
import io.fencedlock.chaos.client.RecordingClient;
import io.fencedlock.chaos.history.Entries;
import io.fencedlock.chaos.history.Fields;
import io.fencedlock.chaos.history.Fn;
import io.fencedlock.chaos.history.OpType;
import io.fencedlock.chaos.nemesis.ClientPauses;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * One client's loop: acquire, (stall if the nemesis armed it), write the fenced object, write the
 * canary, release. Runs on its own thread until told to stop; not thread-safe otherwise.
 */
final class Worker implements Runnable {
  private final int client;
  private final RecordingClient recording;
  private final ClientPauses pauses;
  private final BooleanSupplier stop;
  private final long workMillis;

  Worker(
      int client,
      RecordingClient recording,
      ClientPauses pauses,
      BooleanSupplier stop,
      long workMillis) {
    this.workMillis = workMillis;
    this.client = client;
    this.recording = recording;
    this.pauses = pauses;
    this.stop = stop;
  }

  @Override
  public void run() {
    while (!stop.getAsBoolean() && !Thread.currentThread().isInterrupted()) {
      Completion acquired = recording.call(Fn.ACQUIRE, Map.of());
      if (acquired.type() == OpType.OK) {
        useLease(acquired.value());
      }
    }
  }

  /**
   * The holder's work under the lock, which takes time: that is what a clock step can cut short.
   */
  private void work() {
    try {
      TimeUnit.MILLISECONDS.sleep(workMillis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // stop requested: the loop ends after this lease
    }
  }

  private void useLease(Map<String, Object> lease) {
    long token = ((Number) lease.get(Fields.TOKEN)).longValue();
    String owner = (String) lease.get(Fields.OWNER);
    OptionalLong stall = pauses.take(client);
    if (stall.isPresent()) {
      recording.call(Fn.PAUSE, Map.of(Fields.MILLIS, stall.getAsLong()));
    }
    work();
    String entry = Entries.entry(token, owner);
    recording.call(Fn.WRITE, Map.of(Fields.TOKEN, token, Fields.OWNER, owner, Fields.ENTRY, entry));
    recording.call(
        Fn.CANARY,
        Map.of(
            Fields.TOKEN,
            token,
            Fields.OWNER,
            owner,
            Fields.ENTRY,
            entry,
            Fields.READ_VERSION,
            lease.get(Fields.READ_VERSION)));
    recording.call(Fn.RELEASE, Map.of(Fields.TOKEN, token, Fields.OWNER, owner));
  }
}
