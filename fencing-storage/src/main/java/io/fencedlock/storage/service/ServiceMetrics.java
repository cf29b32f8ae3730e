package io.fencedlock.storage.service;

import io.fencedlock.storage.WriteResult;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.IntSupplier;

/**
 * The service's meters, in the caller's {@link MeterRegistry}. Without one they go to an empty
 * {@link CompositeMeterRegistry}, whose meters record nothing, so the request path has no "if
 * metrics" branches. Names and tags are documented in the storage README. Thread-safe.
 */
final class ServiceMetrics {
  static final String WRITES = "fencedlock.storage.writes";
  static final String OVERLOADS = "fencedlock.storage.overloads";
  static final String TIMEOUTS = "fencedlock.storage.timeouts";
  static final String REQUESTS = "fencedlock.storage.requests";
  static final String QUEUED = "fencedlock.storage.queued";
  static final String RUNNING = "fencedlock.storage.running";

  /** Where a slow client was cut off. */
  enum Phase {
    HEAD,
    BODY
  }

  private final MeterRegistry registry;
  private final List<Meter> gauges = new CopyOnWriteArrayList<>();

  private ServiceMetrics(MeterRegistry registry) {
    this.registry = registry;
  }

  static ServiceMetrics in(Optional<MeterRegistry> registry) {
    return new ServiceMetrics(registry.orElseGet(CompositeMeterRegistry::new));
  }

  /**
   * Registers the gauges of store calls running and of requests waiting for a store thread, until
   * {@link #removeGauges()}.
   */
  void storeLoad(IntSupplier running, IntSupplier queued) {
    gauges.add(
        Gauge.builder(RUNNING, running::getAsInt)
            .description("store calls running")
            .register(registry));
    gauges.add(
        Gauge.builder(QUEUED, queued::getAsInt)
            .description("requests waiting for a store thread")
            .register(registry));
  }

  /**
   * Removes the gauges from the registry, for a service that stopped: they would go on reading its
   * stopped store threads (and hold them), and a registry keeps the first gauge of a name, so a
   * service started later on the same registry would never get its own. Idempotent.
   */
  void removeGauges() {
    for (Meter gauge : gauges) {
      registry.remove(gauge);
    }
    gauges.clear();
  }

  /** Counts a write or fence that reached the store, by its outcome. */
  void write(String operation, WriteResult result) {
    Counter.builder(WRITES)
        .description("writes and fences that reached the store, by outcome")
        .tag("operation", operation)
        .tag("result", result(result))
        .register(registry)
        .increment();
  }

  /** Counts a request refused with 503 because the store's queue was full. */
  void overload(String endpoint) {
    Counter.builder(OVERLOADS)
        .description("requests refused with 503 and Retry-After; none changed anything")
        .tag("endpoint", endpoint)
        .register(registry)
        .increment();
  }

  /** Counts a connection or request cut off because its client was too slow. */
  void timeout(Phase phase) {
    Counter.builder(TIMEOUTS)
        .description("requests cut off because the client sent too slowly")
        .tag("phase", phase.name().toLowerCase(Locale.ROOT))
        .register(registry)
        .increment();
  }

  /** Records one answered request: from its complete head to its response's last byte. */
  void request(String endpoint, int status, long nanos) {
    Timer.builder(REQUESTS)
        .description("requests from their complete head to their response's last byte")
        .tag("endpoint", endpoint)
        .tag("status", Integer.toString(status))
        .register(registry)
        .record(nanos, java.util.concurrent.TimeUnit.NANOSECONDS);
  }

  private static String result(WriteResult result) {
    if (result instanceof WriteResult.Rejected rejected) {
      return rejected.reason() == WriteResult.Reason.STALE ? "rejected_stale" : "alarm";
    }
    return "accepted";
  }
}
