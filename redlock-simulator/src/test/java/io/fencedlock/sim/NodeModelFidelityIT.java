package io.fencedlock.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.fencedlock.redlock.RedlockConfig;
import io.fencedlock.redlock.driver.DriverOptions;
import io.fencedlock.redlock.resp.RespNodeDriver;
import io.fencedlock.redlock.spi.LockReply;
import io.fencedlock.redlock.spi.NodeDriver;
import io.fencedlock.testkit.RedisNode;
import io.fencedlock.testkit.RedisNodes;
import io.fencedlock.testkit.support.Timing;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * The fidelity of the simulator's node model: random sequences of the project's script calls
 * (random owners, TTLs, tokens, predecessors, marker and incarnation calls, wipes and time
 * advances) run on a real redis-server through the default (RESP) driver, that is through the real
 * Lua scripts, and on the {@link ScriptModel}; every reply and the whole state after every call
 * (keys present, values, fence counters, marker, high-water mark, TTLs within a tolerance) must
 * agree. jqwik reports its seed with every run.
 *
 * <p>Time: the model's clock is the node's own clock, read (Redis TIME) in the same script that
 * reads the node's state before each call, plus the advances made so far; an advance rewrites every
 * TTL on the node in one script. So real time passing during the test moves both sides alike. Only
 * the few milliseconds between that read and the call's execution differ, so no key is let near its
 * expiry at a call (both sides are moved past it first), and TTLs are compared within {@link
 * #TOLERANCE_MILLIS}.
 */
final class NodeModelFidelityIT {
  private static final long GUARD_MILLIS = 15;
  private static final long TOLERANCE_MILLIS = 40;
  private static RedisNodes nodes;
  private static RedisNode node;
  private static RespNodeDriver checked;
  private static RespNodeDriver unchecked;
  private static String advanceScript;
  private static String dumpScript;

  @BeforeContainer
  static void start() {
    nodes = RedisNodes.start(1);
    node = nodes.node(0);
    checked = open(DriverOptions.defaults());
    unchecked = open(DriverOptions.defaults().withoutMarkerCheckUnsafe());
    advanceScript = resource("advance-time.lua");
    dumpScript = resource("dump-state.lua");
  }

  @AfterContainer
  static void stop() {
    if (checked != null) {
      checked.close();
    }
    if (unchecked != null) {
      unchecked.close();
    }
    if (nodes != null) {
      nodes.close();
    }
  }

  @Property(tries = 120)
  void model_randomScriptCalls_sameRepliesAndStateAsRedis(@ForAll("calls") List<ScriptCall> calls) {
    new Run(checked, EnumSet.noneOf(Bug.class)).play(calls);
  }

  @Property(tries = 40)
  void model_withoutMarkerCheck_sameRepliesAndStateAsRedis(
      @ForAll("calls") List<ScriptCall> calls) {
    new Run(unchecked, EnumSet.of(Bug.NO_MARKER_CHECK)).play(calls);
  }

  @Provide
  Arbitrary<List<ScriptCall>> calls() {
    Arbitrary<String> keys = Arbitraries.of("a", "b");
    Arbitrary<String> owners = Arbitraries.of("owner-1", "owner-2", "owner-3");
    Arbitrary<Long> ttls = Arbitraries.of(100L, 200L, 300L, 400L);
    Arbitrary<Long> tokens =
        Arbitraries.oneOf(
            Arbitraries.just(0L),
            Arbitraries.longs().between(995, 1030),
            Arbitraries.longs().between(1995, 2030));
    Arbitrary<String> names = Arbitraries.of("incarnation-1", "incarnation-2");
    Arbitrary<ScriptCall> lock =
        Combinators.combine(
                keys,
                Arbitraries.of(true, true, true, false),
                owners,
                ttls,
                tokens,
                owners.injectNull(0.6))
            .as(ScriptCall.Lock::new);
    Arbitrary<ScriptCall> fence =
        Combinators.combine(keys, owners, tokens).as(ScriptCall.Fence::new);
    Arbitrary<ScriptCall> extend =
        Combinators.combine(keys, owners, ttls.map(t -> t + 100)).as(ScriptCall.Extend::new);
    Arbitrary<ScriptCall> release =
        Combinators.combine(keys, owners, Arbitraries.of(true, false)).as(ScriptCall.Release::new);
    Arbitrary<ScriptCall> init =
        Combinators.combine(Arbitraries.of(1000L, 2000L), names.injectNull(0.5))
            .as(ScriptCall.Init::new);
    Arbitrary<ScriptCall> call =
        Arbitraries.frequencyOf(
            Tuple.of(8, lock),
            Tuple.of(3, fence),
            Tuple.of(3, extend),
            Tuple.of(3, release),
            Tuple.of(1, Arbitraries.just(new ScriptCall.ReadMarks())),
            Tuple.of(1, Arbitraries.just(new ScriptCall.HasMarker())),
            Tuple.of(2, names.map(ScriptCall.NameEmpty::new)),
            Tuple.of(3, init),
            Tuple.of(1, Arbitraries.just(new ScriptCall.Wipe())),
            Tuple.of(3, Arbitraries.of(30L, 130L, 230L, 430L).map(ScriptCall.Advance::new)));
    return call.list().ofMinSize(5).ofMaxSize(40);
  }

  /** One sequence on both sides. */
  private static final class Run {
    private final NodeDriver driver;
    private long nodeMillis;

    /** When {@link #nodeMillis} was read: the model's clock stands still from then on. */
    private long syncedAtNanos = System.nanoTime();

    private long advanced;
    private final ScriptModel model;
    private final NodeStore store;

    Run(NodeDriver driver, Set<Bug> bugs) {
      this.driver = driver;
      this.store = new NodeStore(() -> nodeMillis + advanced);
      this.model = new ScriptModel(store, bugs, KeyObserver.NONE);
    }

    void play(List<ScriptCall> calls) {
      node.command("FLUSHALL");
      for (int i = 0; i < calls.size(); i++) {
        ScriptCall call = calls.get(i);
        String where = "after calls " + calls.subList(0, i);
        compareState(where);
        keepClearOfExpiries();
        if (call instanceof ScriptCall.Wipe) {
          node.command("FLUSHALL");
          store.wipe();
        } else if (call instanceof ScriptCall.Advance advance) {
          advance(clearOf(advance.millis()));
        } else {
          Object real = join(call.onRedis(driver));
          Object modeled = call.onModel(model);
          compareReplies(call, real, modeled, where, tolerance());
        }
      }
      compareState("after all of " + calls);
    }

    /** Reads the node's clock and state in one step and compares the state with the model's. */
    private void compareState(String where) {
      long tolerance = tolerance();
      List<?> dump = (List<?>) node.command("EVAL", dumpScript, "0");
      syncedAtNanos = System.nanoTime();
      nodeMillis =
          Long.parseLong((String) dump.get(0)) * 1000 + Long.parseLong((String) dump.get(1)) / 1000;
      Map<String, Object[]> real = new HashMap<>();
      for (int i = 2; i < dump.size(); i += 3) {
        real.put((String) dump.get(i), new Object[] {dump.get(i + 1), dump.get(i + 2)});
      }
      assertThat(store.liveKeys())
          .as("keys %s", where)
          .containsExactlyInAnyOrderElementsOf(real.keySet());
      for (Map.Entry<String, Object[]> e : real.entrySet()) {
        String key = e.getKey();
        assertThat(store.get(key)).as("value of %s %s", key, where).isEqualTo(e.getValue()[0]);
        long realTtl = (Long) e.getValue()[1];
        long modelTtl = store.pttl(key);
        if (realTtl < 0 || modelTtl < 0) {
          assertThat(modelTtl).as("PTTL of %s %s", key, where).isEqualTo(realTtl);
        } else {
          assertThat(modelTtl)
              .as("PTTL of %s %s", key, where)
              .isCloseTo(realTtl, within(tolerance));
        }
      }
    }

    /** No key may be within a few ms of expiring when a call runs: move both sides past it. */
    private void keepClearOfExpiries() {
      for (int round = 0; round < 10; round++) {
        long latest = -1;
        for (String key : store.liveKeys()) {
          long pttl = store.pttl(key);
          if (pttl >= 0 && pttl <= GUARD_MILLIS) {
            latest = Math.max(latest, pttl);
          }
        }
        if (latest < 0) {
          return;
        }
        advance(clearOf(latest + GUARD_MILLIS + 1));
      }
    }

    /** {@code millis}, moved off any key's remaining TTL so that no key expires at the edge. */
    private long clearOf(long millis) {
      long delta = millis;
      boolean clash = true;
      while (clash) {
        clash = false;
        for (String key : store.liveKeys()) {
          long pttl = store.pttl(key);
          if (pttl >= 0 && Math.abs(pttl - delta) <= GUARD_MILLIS) {
            delta += 2 * GUARD_MILLIS + 1;
            clash = true;
          }
        }
      }
      return delta;
    }

    private void advance(long millis) {
      node.command("EVAL", advanceScript, "0", Long.toString(millis));
      advanced += millis;
    }

    /**
     * How far a TTL may differ: {@link #TOLERANCE_MILLIS}, plus the real time since the model's
     * clock was last read from the node, during which the node's clock ran on while the model's
     * stood still (on a loaded machine that alone was over 50 ms once).
     */
    private long tolerance() {
      return TOLERANCE_MILLIS + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - syncedAtNanos);
    }

    private static void compareReplies(
        ScriptCall call, Object real, Object modeled, String where, long tolerance) {
      if (real instanceof LockReply.Refused r && modeled instanceof LockReply.Refused m) {
        assertThat(m.holder()).as("holder in reply to %s %s", call, where).isEqualTo(r.holder());
        assertThat(m.counter()).as("counter in reply to %s %s", call, where).isEqualTo(r.counter());
        if (r.pttlMillis() < 0) {
          assertThat(m.pttlMillis()).isEqualTo(r.pttlMillis());
        } else {
          assertThat(m.pttlMillis())
              .as("PTTL in reply to %s %s", call, where)
              .isCloseTo(r.pttlMillis(), within(tolerance));
        }
        return;
      }
      assertThat(modeled).as("reply to %s %s", call, where).isEqualTo(real);
    }
  }

  private static Object join(java.util.concurrent.CompletableFuture<?> future) {
    try {
      return future.get(Timing.AWAIT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("the real node did not answer", e);
    }
  }

  private static RespNodeDriver open(DriverOptions options) {
    RedlockConfig config =
        RedlockConfig.builder()
            .nodes(node.uri())
            .nodeTimeout(Timing.AWAIT)
            .connectTimeout(Timing.AWAIT)
            .build();
    RespNodeDriver driver = RespNodeDriver.open(config, options);
    driver.connect(Timing.AWAIT);
    return driver;
  }

  private static String resource(String name) {
    try (InputStream in = NodeModelFidelityIT.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("missing test resource " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
