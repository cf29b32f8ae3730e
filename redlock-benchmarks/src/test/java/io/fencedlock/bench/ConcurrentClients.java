package io.fencedlock.bench;

import io.fencedlock.testkit.support.Timing;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.IntConsumer;

/** Runs client threads at once in the benchmark's tests and collects what they threw. */
final class ConcurrentClients {
  private ConcurrentClients() {}

  /**
   * Starts {@code clients} threads, each running {@code client} with its index, waits for each at
   * most {@link Timing#WORKLOAD}, and returns the runtime exceptions they threw.
   */
  static List<Throwable> run(int clients, IntConsumer client) throws InterruptedException {
    List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
    List<Thread> threads = new ArrayList<>();
    for (int c = 0; c < clients; c++) {
      int index = c;
      threads.add(
          new Thread(
              () -> {
                try {
                  client.accept(index);
                } catch (RuntimeException e) {
                  failures.add(e);
                }
              }));
    }
    threads.forEach(Thread::start);
    for (Thread thread : threads) {
      thread.join(Timing.WORKLOAD.toMillis());
    }
    return failures;
  }
}
