package io.fencedlock.redlock.micrometer;

import io.fencedlock.redlock.LeaseLoss;
import io.fencedlock.redlock.NodeStatus;
import io.fencedlock.redlock.RedlockMetrics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * {@link RedlockMetrics} into a Micrometer {@link MeterRegistry}. The meters, each tagged with the
 * client's {@code name} (see {@link #of(MeterRegistry, String)}):
 *
 * <ul>
 *   <li>{@code redlock.acquire} timer, tag {@code outcome} = {@code acquired} | {@code failed}
 *   <li>{@code redlock.extend} timer (extends and renewals), tag {@code outcome} = {@code
 *       confirmed} | {@code unconfirmed}
 *   <li>{@code redlock.release} timer
 *   <li>{@code redlock.node.replies} counter of lock-step replies, tag {@code status} = {@code
 *       granted} | {@code refused} | {@code timed_out} | {@code error} | {@code uninitialized}
 *   <li>{@code redlock.renewals} counter
 *   <li>{@code redlock.leases.lost} counter, tag {@code reason} = {@code renewal_failed} | {@code
 *       no_longer_held} | {@code renewal_limit} | {@code expired} | {@code client_closed}
 *   <li>{@code redlock.handoffs} counter
 *   <li>{@code redlock.nodes.excluded} counter: nodes first seen without their marker
 * </ul>
 *
 * Resource names are never tags: they are unbounded. Thread-safe.
 */
public final class MicrometerMetrics implements RedlockMetrics {
  private final Timer acquired;
  private final Timer failed;
  private final Timer confirmed;
  private final Timer unconfirmed;
  private final Timer released;
  private final Map<NodeStatus, Counter> replies = new EnumMap<>(NodeStatus.class);
  private final Counter renewals;
  private final Map<LeaseLoss.Reason, Counter> lost = new EnumMap<>(LeaseLoss.Reason.class);
  private final Counter handoffs;
  private final Counter excluded;

  private MicrometerMetrics(MeterRegistry registry, String name) {
    acquired = timer(registry, "redlock.acquire", name, "outcome", "acquired");
    failed = timer(registry, "redlock.acquire", name, "outcome", "failed");
    confirmed = timer(registry, "redlock.extend", name, "outcome", "confirmed");
    unconfirmed = timer(registry, "redlock.extend", name, "outcome", "unconfirmed");
    released = Timer.builder("redlock.release").tag("client", name).register(registry);
    for (NodeStatus status : NodeStatus.values()) {
      replies.put(
          status,
          Counter.builder("redlock.node.replies")
              .tag("client", name)
              .tag("status", status.name().toLowerCase(Locale.ROOT))
              .register(registry));
    }
    renewals = Counter.builder("redlock.renewals").tag("client", name).register(registry);
    for (LeaseLoss.Reason reason : LeaseLoss.Reason.values()) {
      lost.put(
          reason,
          Counter.builder("redlock.leases.lost")
              .tag("client", name)
              .tag("reason", reason.name().toLowerCase(Locale.ROOT))
              .register(registry));
    }
    handoffs = Counter.builder("redlock.handoffs").tag("client", name).register(registry);
    excluded = Counter.builder("redlock.nodes.excluded").tag("client", name).register(registry);
  }

  /** Metrics of a client named {@code "redlock"}. */
  public static MicrometerMetrics of(MeterRegistry registry) {
    return of(registry, "redlock");
  }

  /** Metrics of a client, tagged {@code client=name} so that several clients share a registry. */
  public static MicrometerMetrics of(MeterRegistry registry, String name) {
    return new MicrometerMetrics(
        Objects.requireNonNull(registry, "registry"), Objects.requireNonNull(name, "name"));
  }

  private static Timer timer(
      MeterRegistry registry, String meter, String name, String tag, String value) {
    return Timer.builder(meter).tag("client", name).tag(tag, value).register(registry);
  }

  @Override
  public void acquired(long nanos, boolean granted) {
    (granted ? acquired : failed).record(nanos, TimeUnit.NANOSECONDS);
  }

  @Override
  public void nodeReply(NodeStatus status) {
    replies.get(status).increment();
  }

  @Override
  public void extended(long nanos, boolean ok) {
    (ok ? confirmed : unconfirmed).record(nanos, TimeUnit.NANOSECONDS);
  }

  @Override
  public void released(long nanos) {
    released.record(nanos, TimeUnit.NANOSECONDS);
  }

  @Override
  public void renewal() {
    renewals.increment();
  }

  @Override
  public void leaseLost(LeaseLoss.Reason reason) {
    lost.get(reason).increment();
  }

  @Override
  public void handoff() {
    handoffs.increment();
  }

  @Override
  public void nodeExcluded() {
    excluded.increment();
  }
}
