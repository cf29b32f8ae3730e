package io.fencedlock.cli.exec;

import io.fencedlock.cli.Usage;
import io.fencedlock.redlock.RedlockConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The parsed arguments of {@code ./fencedlock exec}. Immutable.
 *
 * @param nodes the Redis node URIs
 * @param ttl the lease TTL, renewed while the command runs
 * @param maxWait how long to wait for the lock
 * @param grace how long the command gets between SIGTERM and SIGKILL
 * @param maxHold the longest the lock is held (renewal stops, the lease is lost, the command
 *     killed)
 * @param maxLeaseTtl the client's {@link RedlockConfig#maxLeaseTtl()}, at least {@code ttl}: a
 *     deployment-wide safety setting, so exec raises it only when told to
 * @param resource the resource to lock
 * @param command the command and its arguments
 * @param help whether {@code --help} was asked for
 */
record ExecArgs(
    List<String> nodes,
    Duration ttl,
    Duration maxWait,
    Duration grace,
    Duration maxHold,
    Duration maxLeaseTtl,
    String resource,
    List<String> command,
    boolean help) {

  static final String USAGE = Usage.of("exec");

  private static final Pattern DURATION = Pattern.compile("(\\d+)(ms|s|m|h)");

  /**
   * Parses the arguments; {@code env} supplies {@code FENCEDLOCK_NODES}.
   *
   * @throws IllegalArgumentException with a message for the user
   */
  static ExecArgs parse(String[] args, Map<String, String> env) {
    List<String> nodes = null;
    Duration ttl = Duration.ofSeconds(10);
    Duration wait = Duration.ofSeconds(30);
    Duration grace = Duration.ofSeconds(10);
    Duration maxHold = Duration.ofHours(1);
    Duration maxLeaseTtl = RedlockConfig.DEFAULT_MAX_LEASE_TTL;
    String resource = null;
    int i = 0;
    while (i < args.length && !args[i].equals("--")) {
      String arg = args[i];
      switch (arg) {
        case "-h", "--help" -> {
          return new ExecArgs(
              List.of(), ttl, wait, grace, maxHold, maxLeaseTtl, "", List.of(), true);
        }
        case "--nodes" -> nodes = splitNodes(value(args, i++, arg));
        case "--ttl" -> ttl = duration(value(args, i++, arg), arg);
        case "--wait" -> wait = duration(value(args, i++, arg), arg);
        case "--grace" -> grace = duration(value(args, i++, arg), arg);
        case "--max-hold" -> maxHold = duration(value(args, i++, arg), arg);
        case "--max-lease-ttl" -> maxLeaseTtl = duration(value(args, i++, arg), arg);
        default -> {
          if (arg.startsWith("-")) {
            throw new IllegalArgumentException("unknown option " + arg);
          }
          if (resource != null) {
            throw new IllegalArgumentException(
                "one RESOURCE, then -- and the command: got '" + resource + "' and '" + arg + "'");
          }
          resource = arg;
        }
      }
      i++;
    }
    if (ttl.compareTo(maxLeaseTtl) > 0) {
      throw new IllegalArgumentException(
          "--ttl "
              + ttl
              + " is over --max-lease-ttl "
              + maxLeaseTtl
              + ": raise --max-lease-ttl (a node that loses its memory is then kept out of quorums"
              + " that long, and every client of the deployment needs the same value), or keep"
              + " --ttl short: exec renews the lease while the command runs");
    }
    if (resource == null) {
      throw new IllegalArgumentException("missing RESOURCE");
    }
    if (i >= args.length || i == args.length - 1) {
      throw new IllegalArgumentException("missing -- COMMAND after the resource");
    }
    if (nodes == null) {
      String fromEnv = env.get("FENCEDLOCK_NODES");
      if (fromEnv == null || fromEnv.isBlank()) {
        throw new IllegalArgumentException(
            "no nodes: give --nodes URI,... or set FENCEDLOCK_NODES");
      }
      nodes = splitNodes(fromEnv);
    }
    List<String> command = List.copyOf(Arrays.asList(args).subList(i + 1, args.length));
    return new ExecArgs(nodes, ttl, wait, grace, maxHold, maxLeaseTtl, resource, command, false);
  }

  private static String value(String[] args, int index, String option) {
    if (index + 1 >= args.length || args[index + 1].equals("--")) {
      throw new IllegalArgumentException(option + " needs a value");
    }
    return args[index + 1];
  }

  private static List<String> splitNodes(String list) {
    List<String> nodes = new ArrayList<>();
    for (String node : list.split(",")) {
      if (!node.isBlank()) {
        nodes.add(node.trim());
      }
    }
    if (nodes.isEmpty()) {
      throw new IllegalArgumentException("no node URIs in '" + list + "'");
    }
    return List.copyOf(nodes);
  }

  static Duration duration(String text, String option) {
    if (text.trim().equals("0")) {
      return Duration.ZERO; // zero needs no unit; the usage shows '--wait 0'
    }
    Matcher m = DURATION.matcher(text.trim());
    if (!m.matches()) {
      throw new IllegalArgumentException(
          option + " takes a duration like 500ms, 10s, 5m or 1h: '" + text + "'");
    }
    long amount = Long.parseLong(m.group(1));
    return switch (m.group(2)) {
      case "ms" -> Duration.ofMillis(amount);
      case "s" -> Duration.ofSeconds(amount);
      case "m" -> Duration.ofMinutes(amount);
      default -> Duration.ofHours(amount);
    };
  }
}
