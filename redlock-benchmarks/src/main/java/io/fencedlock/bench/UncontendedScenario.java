package io.fencedlock.bench;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;
import org.HdrHistogram.Histogram;
import org.jspecify.annotations.Nullable;

/**
 * One client acquiring and releasing resources nobody else uses, back to back (closed loop: the
 * next operation starts when the last ends, so there is no schedule to fall behind and no
 * coordinated omission to correct). Scenarios 1 and 4 use one resource and differ only in the
 * links; scenario 1-many cycles over {@link #MANY} resources, as an application locking many keys
 * does; scenario 1-idle ({@link #afterIdle}) pauses before each operation, outside its timing.
 *
 * <p>The systems are measured in turns of {@link #TURN}: a system's own stragglers (replies still
 * arriving after an operation returned) land on its own next operation, as they do for a real
 * client, except for the last operation of a turn; and the machine's slower changes of speed, which
 * made two identical systems measured one after the other differ by up to 10 % at p50, land on all
 * of them alike. Only one system works during a turn, so the client side's CPU time and allocations
 * sampled around it ({@link CostMeter}) are that system's.
 */
final class UncontendedScenario implements TurnTakingScenario {
  /** Long enough that a turn's first operation is a small part of it (hundreds on loopback). */
  static final Duration TURN = Duration.ofMillis(100);

  /** Resources the client of scenario 1-many cycles over. */
  static final int MANY = 100;

  /** The systems of scenario 1-idle: the round trip's floor and the two it is compared with. */
  static final Set<String> IDLE_SYSTEMS =
      Set.of(Systems.FLOOR_RAW, Systems.UNFENCED, Systems.FENCED);

  private final String id;
  private final String title;
  private final int resources;
  private final ServerCpu servers;
  private final LongSupplier clock;

  /** Run before each operation, untimed; null for none. With it, only {@link #IDLE_SYSTEMS} run. */
  private final @Nullable Runnable idle;

  /** With the Redis servers whose CPU time is measured beside the client's ({@link CostMeter}). */
  UncontendedScenario(String id, String title, int resources, ServerCpu servers) {
    this(id, title, resources, servers, System::nanoTime);
  }

  /**
   * With {@code clock} (nanoseconds) timing turns and operations, for tests with a manual clock.
   */
  UncontendedScenario(
      String id, String title, int resources, ServerCpu servers, LongSupplier clock) {
    this(id, title, resources, servers, clock, null);
  }

  private UncontendedScenario(
      String id,
      String title,
      int resources,
      ServerCpu servers,
      LongSupplier clock,
      @Nullable Runnable idle) {
    if (resources < 1) {
      throw new IllegalArgumentException("resources must be at least 1: " + resources);
    }
    this.id = id;
    this.title = title;
    this.resources = resources;
    this.servers = servers;
    this.clock = clock;
    this.idle = idle;
  }

  /**
   * Scenario 1-idle: scenario 1 with the client idle for {@link HandoffScenario#HOLD} before each
   * operation (untimed), as every handoff of scenario 3 follows a holder's work of that length.
   * Whatever starting after an idle stretch costs on the machine (on a virtual machine whose idle
   * CPUs halt: waking them for the servers, the I/O thread and the caller), scenario 1's
   * back-to-back operations never pay it and every handoff does; floor-raw's p50 here minus its
   * scenario-1 p50 is that cost for the floor ({@link Targets#idleSurchargeMicros}). Only {@link
   * #IDLE_SYSTEMS} take part.
   */
  static UncontendedScenario afterIdle(ServerCpu servers) {
    return afterIdle(servers, System::nanoTime, () -> Workers.pause(HandoffScenario.HOLD));
  }

  /** The same, with {@code clock} timing turns and operations and {@code idle} as the pause. */
  static UncontendedScenario afterIdle(ServerCpu servers, LongSupplier clock, Runnable idle) {
    return new UncontendedScenario(
        "1-idle",
        "scenario 1 with the client idle for "
            + HandoffScenario.HOLD.toMillis()
            + " ms (untimed) before each operation, as before a handoff",
        1,
        servers,
        clock,
        idle);
  }

  @Override
  public boolean accepts(LockSystem system) {
    return (idle == null || IDLE_SYSTEMS.contains(system.name())) && system.takesPart(id);
  }

  @Override
  public String id() {
    return id;
  }

  @Override
  public String title() {
    return title;
  }

  @Override
  public Measurement run(LockSystem system, Window window) {
    return runInTurns(List.of(system), window).get(0);
  }

  @Override
  public List<Measurement> runInTurns(List<LockSystem> systems, Window window) {
    CostMeter meter = CostMeter.create(servers);
    List<Entrant> entrants = systems.stream().map(system -> new Entrant(system, meter)).toList();
    entrants.forEach(
        entrant -> entrant.loop(window.warmup(), Measurement.newHistogram(), new ErrorTally()));
    long wanted = window.measure().toNanos();
    List<Entrant> unfinished;
    for (int round = 0;
        !(unfinished = entrants.stream().filter(e -> e.measuredNanos < wanted).toList()).isEmpty();
        round++) {
      // Each round starts one system later, so no system always follows the same one (and
      // inherits the same predecessor's stragglers and cache state).
      for (int k = 0; k < unfinished.size(); k++) {
        Entrant entrant = unfinished.get((k + round) % unfinished.size());
        entrant.takeTurn(
            Duration.ofNanos(Math.min(TURN.toNanos(), wanted - entrant.measuredNanos)));
      }
    }
    return entrants.stream().map(Entrant::measurement).toList();
  }

  /** One system's share of a run in turns: what its turns have recorded so far. */
  private final class Entrant {
    final LockSystem system;
    final CostMeter meter;

    /** Named once, so that cycling over them allocates nothing in any system's turn. */
    final String[] names = new String[resources];

    final Histogram latencies = Measurement.newHistogram();
    final ErrorTally errors = new ErrorTally();
    long measuredNanos;
    ClientCost cost = ClientCost.ZERO;
    int next;

    Entrant(LockSystem system, CostMeter meter) {
      this.system = system;
      this.meter = meter;
      for (int i = 0; i < resources; i++) {
        names[i] = "bench:s" + id + ":" + system.name() + (resources == 1 ? "" : ":" + i);
      }
    }

    void takeTurn(Duration length) {
      CostMeter.Snapshot before = meter.start();
      long start = clock.getAsLong();
      loop(length, latencies, errors);
      measuredNanos += clock.getAsLong() - start;
      cost = cost.plus(meter.since(before));
    }

    void loop(Duration length, Histogram into, ErrorTally tally) {
      long end = clock.getAsLong() + length.toNanos();
      long now;
      while ((now = clock.getAsLong()) < end) {
        if (idle != null) {
          idle.run();
          now = clock.getAsLong();
        }
        String resource = names[next];
        next = next + 1 == names.length ? 0 : next + 1;
        try {
          system.acquire(resource, Duration.ZERO).release();
          into.recordValue(clock.getAsLong() - now);
        } catch (NotGrantedException e) {
          tally.record(e); // reported as the run's error count
        }
      }
    }

    Measurement measurement() {
      return new Measurement(latencies, measuredNanos, errors.count(), 0, errors.first(), cost);
    }
  }
}
