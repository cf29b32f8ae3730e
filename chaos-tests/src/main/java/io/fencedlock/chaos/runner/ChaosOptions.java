package io.fencedlock.chaos.runner;

import io.fencedlock.testkit.Backend;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The command line of {@code ./fencedlock chaos}. Immutable.
 *
 * @param experiments which experiments to run, in order
 * @param schedules how many schedules (seeds) per experiment
 * @param seed the seed of the first schedule; schedule i uses seed + i
 * @param faults fault count per schedule, overriding each experiment's default
 * @param out the output root
 * @param backend what runs the nodes and the fault proxy
 * @param campaign schedules in all for a campaign ({@link Campaign}), 0 for plain runs
 * @param parallel how many experiments a campaign runs at once
 * @param replay a run's {@code results.json} to run again, if any
 * @param shrink a failing run's {@code results.json} whose schedule to shrink, if any
 * @param report a directory of runs to write a campaign report for, if any
 * @param recheck a run's {@code results.json} whose recorded history to check again, if any
 * @param help whether to print the usage and exit
 */
record ChaosOptions(
    List<Experiment> experiments,
    int schedules,
    long seed,
    OptionalLong faults,
    Path out,
    Backend backend,
    int campaign,
    int parallel,
    Optional<Path> replay,
    Optional<Path> shrink,
    Optional<Path> report,
    Optional<Path> recheck,
    boolean help) {

  static final String USAGE =
      """
      usage: ./fencedlock chaos [--experiments a,b,...] [--schedules N] [--seed S] [--faults N] [--out DIR]
                                [--backend process|container]
             ./fencedlock chaos --campaign N [--parallel P] [--experiments ...] [--seed S] [--faults N]
                                [--out DIR]
             ./fencedlock chaos --replay RESULTS_JSON | --shrink RESULTS_JSON | --recheck RESULTS_JSON
             ./fencedlock chaos --report DIR

      Runs Jepsen-style chaos experiments against real Redis nodes, per-link fault proxies and the
      fenced storage service, checks each history and asserts each experiment's expectation.

        --experiments  comma-separated names (default: all): %s
        --schedules    schedules (seeds) per experiment (default 1)
        --seed         seed of the first schedule, to replay a run (default: random, printed)
        --faults       faults per schedule (default: per experiment)
        --out          output root (default chaos-tests/target/chaos)
        --backend      process (default): redis-server processes, the fault proxy in this JVM;
                       container: a container per node and the fault proxy in a container
                       (Testcontainers' ToxiproxyContainer) on their network; needs a Docker
                       engine (scripts/docker-setup)
        --campaign     N schedules in all, shared out over the experiments (a quarter share for
                       those that need a fresh cluster per run), each experiment's schedules in one
                       long-lived cluster; passing runs keep only results.json; writes
                       <out>/campaign-<timestamp>.md and .json with totals and fault coverage
        --parallel     how many experiments a campaign runs at once, each on its own cluster
                       (default 1)
        --replay       run the schedule, seed and experiment a results.json recorded, again
        --shrink       re-run a failing results.json's schedule with faults removed one at a time,
                       keeping each removal after which the run still fails; prints the smallest
        --recheck      run this version's checkers and the experiment's expectation again on the
                       history.jsonl recorded beside a results.json (no cluster is started)
        --report       write the campaign report of the runs under DIR (their results.json), e.g.
                       of a campaign that was stopped before it wrote its own
        --help         this text

      Each run writes <out>/<experiment>/<timestamp>/{history.jsonl,results.json,timeline.html}.
      Exit status: 0 if every expectation held, 1 if not, 2 for bad options.
      """;

  /**
   * Parses the arguments.
   *
   * @throws IllegalArgumentException for unknown options, names or bad numbers
   */
  static ChaosOptions parse(String[] args) {
    List<Experiment> experiments = Experiments.all();
    int schedules = 1;
    long seed = new SecureRandom().nextLong();
    OptionalLong faults = OptionalLong.empty();
    Backend backend = Backend.PROCESS;
    int campaign = 0;
    int parallel = 1;
    Optional<Path> replay = Optional.empty();
    Optional<Path> shrink = Optional.empty();
    Optional<Path> report = Optional.empty();
    Optional<Path> recheck = Optional.empty();
    Path out =
        Files.isDirectory(Path.of("chaos-tests"))
            ? Path.of("chaos-tests", "target", "chaos")
            : Path.of("target", "chaos");
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (arg.equals("--help") || arg.equals("-h")) {
        return new ChaosOptions(
            experiments,
            schedules,
            seed,
            faults,
            out,
            backend,
            0,
            1,
            replay,
            shrink,
            report,
            recheck,
            true);
      }
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException("missing value for " + arg);
      }
      String value = args[++i];
      switch (arg) {
        case "--experiments" -> experiments = named(value);
        case "--schedules" -> schedules = positive(arg, value);
        case "--seed" -> seed = number(arg, value);
        case "--faults" -> faults = OptionalLong.of(positive(arg, value));
        case "--out" -> out = Path.of(value);
        case "--backend" -> backend = backend(value);
        case "--campaign" -> campaign = positive(arg, value);
        case "--parallel" -> parallel = positive(arg, value);
        case "--replay" -> replay = Optional.of(Path.of(value));
        case "--shrink" -> shrink = Optional.of(Path.of(value));
        case "--report" -> report = Optional.of(Path.of(value));
        case "--recheck" -> recheck = Optional.of(Path.of(value));
        default -> throw new IllegalArgumentException("unknown option " + arg);
      }
    }
    return new ChaosOptions(
        experiments,
        schedules,
        seed,
        faults,
        out,
        backend,
        campaign,
        parallel,
        replay,
        shrink,
        report,
        recheck,
        false);
  }

  private static Backend backend(String value) {
    for (Backend b : Backend.values()) {
      if (backendName(b).equals(value)) {
        return b;
      }
    }
    throw new IllegalArgumentException(
        "--backend must be process or container, not '" + value + "'");
  }

  /** The backend as the command line names it: {@code process} or {@code container}. */
  static String backendName(Backend backend) {
    return backend.name().toLowerCase(java.util.Locale.ROOT);
  }

  private static List<Experiment> named(String value) {
    List<Experiment> list = new ArrayList<>();
    for (String name : value.split(",")) {
      list.add(
          Experiments.byName(name.trim())
              .orElseThrow(
                  () -> new IllegalArgumentException("unknown experiment '" + name.trim() + "'")));
    }
    return list;
  }

  private static long number(String option, String value) {
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(option + " needs a number, not '" + value + "'", e);
    }
  }

  private static int positive(String option, String value) {
    long n = number(option, value);
    if (n < 1 || n > 10_000) {
      throw new IllegalArgumentException(option + " must be 1 to 10000, not " + n);
    }
    return (int) n;
  }

  static String usage() {
    return USAGE.formatted(
        String.join(", ", Experiments.all().stream().map(Experiment::name).toList()));
  }
}
