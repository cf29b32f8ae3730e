package io.fencedlock.sim;

import java.io.PrintStream;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * {@code ./fencedlock simulate [--schedules N] [--seed S] [--replay SEED] [--bug NAME]... [--trace]
 * [--keep-going] [--no-shrink]}: runs a campaign of simulated schedules, or replays one, and prints
 * a summary. A failing schedule is printed with the command that replays it, then shrunk and
 * printed as a minimal plan with its trace. Exit status 1 if a schedule failed.
 */
public final class SimulateMain {

  private SimulateMain() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out));
  }

  static int run(String[] args, PrintStream out) {
    long schedules = 10_000;
    long seed = System.nanoTime();
    Long replay = null;
    Set<Bug> bugs = EnumSet.noneOf(Bug.class);
    boolean trace = false;
    boolean keepGoing = false;
    boolean shrink = true;
    Set<Violation.Kind> until = EnumSet.noneOf(Violation.Kind.class);
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--schedules" ->
            schedules = Long.parseLong(args[++i].replace("_", "").replace(",", ""));
        case "--seed" -> seed = Long.parseLong(args[++i]);
        case "--replay" -> replay = Long.parseLong(args[++i]);
        case "--bug" -> bugs.add(Bug.parse(args[++i]));
        case "--trace" -> trace = true;
        case "--keep-going" -> keepGoing = true;
        case "--until" ->
            until.add(
                Violation.Kind.valueOf(
                    args[++i].toUpperCase(java.util.Locale.ROOT).replace('-', '_')));
        case "--no-shrink" -> shrink = false;
        case "--teeth" -> {
          return teeth(Integer.parseInt(args[++i]), out);
        }
        case "-h", "--help" -> {
          usage(out);
          return 0;
        }
        default -> {
          out.println("simulate: unknown option " + args[i]);
          usage(out);
          return 2;
        }
      }
    }
    if (replay != null) {
      return replay(replay, bugs, trace, shrink, out);
    }
    out.printf(
        "simulate: %,d schedules from campaign seed %d%s%n",
        schedules, seed, bugs.isEmpty() ? "" : ", bugs put back: " + bugs);
    boolean stopAtAny = !keepGoing && until.isEmpty();
    Campaign.Result result =
        Campaign.run(
            seed,
            schedules,
            bugs,
            kind -> stopAtAny || until.contains(kind),
            line -> out.println("  " + line));
    summary(result, out);
    if (result.firstFailure != null) {
      Outcome failing = result.firstFailure;
      out.printf(
          "%nFAILED: schedule #%d (seed %d): %s%n",
          result.firstFailureIndex, failing.plan().seed(), failing.failures());
      out.println(
          "replay: ./fencedlock simulate --replay "
              + failing.plan().seed()
              + bugFlags(bugs)
              + " --trace");
      Violation.Kind target =
          failing.failures().stream()
              .map(Violation::kind)
              .filter(until::contains)
              .findFirst()
              .orElse(failing.failures().get(0).kind());
      report(failing, target, shrink, out);
      return 1;
    }
    return 0;
  }

  /**
   * For every bug, hunts it from campaign seeds 1 to {@code seeds} and prints after how many
   * schedules each found it, against the bound CI holds it to.
   */
  private static int teeth(int seeds, PrintStream out) {
    int status = 0;
    for (Teeth tooth : Teeth.ALL) {
      long[] found = new long[seeds];
      StringBuilder line = new StringBuilder();
      for (int s = 1; s <= seeds; s++) {
        Teeth.Hunt hunt = tooth.hunt(s, 20L * tooth.within());
        found[s - 1] = hunt.index() < 0 ? Long.MAX_VALUE : hunt.index() + 1;
        line.append(hunt.index() < 0 ? " not found" : " " + (hunt.index() + 1));
      }
      java.util.Arrays.sort(found);
      long worst = found[seeds - 1];
      out.printf(
          "%-30s %s: schedules needed, seeds 1..%d:%s; median %s, worst %s (bound %,d)%n",
          tooth.bug().cliName(),
          tooth.kinds(),
          seeds,
          line,
          found[seeds / 2] == Long.MAX_VALUE ? "-" : found[seeds / 2],
          worst == Long.MAX_VALUE ? "not found" : worst,
          tooth.within());
      if (worst > tooth.within()) {
        status = 1;
      }
    }
    return status;
  }

  private static int replay(
      long seed, Set<Bug> bugs, boolean trace, boolean shrink, PrintStream out) {
    Plan plan = PlanGenerator.generate(seed, bugs);
    Outcome o = Simulation.run(plan, trace);
    plan.describe().forEach(line -> out.println("  " + line));
    if (trace) {
      out.println("trace:");
      o.trace().forEach(line -> out.println("  " + line));
    }
    out.printf(
        "trace hash %016x, %,d steps, %s%n",
        o.traceHash(), o.stats().steps, o.assumptions().describe());
    o.expected().forEach(v -> out.println("expected (assumption broken): " + v));
    if (!o.failed()) {
      out.println("no failure");
      return 0;
    }
    o.failures().forEach(v -> out.println("FAILED: " + v));
    if (shrink) {
      report(o, o.failures().get(0).kind(), true, out);
    }
    return 1;
  }

  private static void report(
      Outcome failing, Violation.Kind target, boolean shrink, PrintStream out) {
    Outcome minimal = failing;
    if (shrink) {
      minimal = Shrinker.shrink(failing, target, 3_000);
      out.printf(
          "%nshrunk (keeping %s) to %d ops and %d faults (from %d and %d):%n",
          target,
          minimal.plan().ops().size(),
          minimal.plan().faults().size(),
          failing.plan().ops().size(),
          failing.plan().faults().size());
    }
    Outcome traced = Simulation.run(minimal.plan(), true);
    traced.plan().describe().forEach(line -> out.println("  " + line));
    out.println("trace:");
    traced.trace().forEach(line -> out.println("  " + line));
    traced.failures().forEach(v -> out.println("FAILED: " + v));
  }

  private static void summary(Campaign.Result r, PrintStream out) {
    out.printf(
        "%n%,d schedules in %.1f s: %,.0f schedules/s, %,d steps, %.1f s simulated%n",
        r.schedules, r.nanos / 1e9, r.perSecond(), r.stats.steps, r.stats.simulatedNanos / 1e9);
    out.printf("invariant checks: %,d%n", r.stats.checks);
    out.println("faults exercised:");
    print(r.stats.faults(), out);
    out.println("work:");
    print(r.stats.work(), out);
    out.printf("schedules outside Redlock's assumptions: %,d%n", r.outsideAssumptions);
    out.println(
        "violations inside the assumptions (failures): "
            + (r.failures.isEmpty() ? "none" : r.failures));
    out.println(
        "violations outside the assumptions (expected, counted): "
            + (r.expected.isEmpty() ? "none" : r.expected));
  }

  private static void print(Map<String, Long> counts, PrintStream out) {
    counts.forEach((k, v) -> out.printf("  %-40s %,15d%n", k, v));
  }

  private static String bugFlags(Set<Bug> bugs) {
    StringBuilder s = new StringBuilder();
    bugs.forEach(b -> s.append(" --bug ").append(b.cliName()));
    return s.toString();
  }

  private static void usage(PrintStream out) {
    out.println(
        "usage: ./fencedlock simulate [--schedules N] [--seed S] [--replay SEED] [--trace]");
    out.println("                             [--bug NAME]... [--keep-going] [--no-shrink]");
    out.println("  --schedules N  how many schedules (default 10,000)");
    out.println("  --seed S       the campaign seed (default: the clock; always printed)");
    out.println("  --replay SEED  run one schedule by its own seed (printed with every failure)");
    out.println("  --trace        print the replayed schedule's events");
    out.print("  --bug NAME     put a known bug back, to see the simulator find it:");
    for (Bug b : Bug.values()) {
      out.print(" " + b.cliName());
    }
    out.println();
    out.println("  --keep-going   do not stop at the first failing schedule");
    out.println("  --no-shrink    do not shrink a failing schedule");
    out.println(
        "  --until KIND   go on past failures until one of this kind (e.g. lease-overlap);"
            + " repeatable");
    out.println(
        "  --teeth K      for every bug, count the schedules needed to find it from seeds 1..K");
  }
}
