package io.fencedlock.chaos.client;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The command line of {@link LockClientMain}, written by the harness. Immutable.
 *
 * @param client the client's index, for its log lines
 * @param nodes the Redis URIs it uses (its own proxies)
 * @param storage the storage service's URL (through its own proxy)
 * @param nodeTimeout the Redlock per-node timeout
 * @param maxLeaseTtl the Redlock maximum lease TTL
 * @param storageTimeout the storage client's request timeout
 * @param markerCheck false only for the negative control
 * @param tokenPrediction false only for the negative control
 */
public record ClientArgs(
    int client,
    List<String> nodes,
    URI storage,
    Duration nodeTimeout,
    Duration maxLeaseTtl,
    Duration storageTimeout,
    boolean markerCheck,
    boolean tokenPrediction) {

  public ClientArgs {
    nodes = List.copyOf(nodes);
  }

  /** The arguments that give this record back through {@link #parse}. */
  public List<String> toArgs() {
    List<String> args =
        new ArrayList<>(
            List.of(
                "--client",
                Integer.toString(client),
                "--nodes",
                String.join(",", nodes),
                "--storage",
                storage.toString(),
                "--node-timeout-ms",
                Long.toString(nodeTimeout.toMillis()),
                "--max-lease-ttl-ms",
                Long.toString(maxLeaseTtl.toMillis()),
                "--storage-timeout-ms",
                Long.toString(storageTimeout.toMillis())));
    if (!markerCheck) {
      args.add("--unsafe-no-marker-check");
    }
    if (!tokenPrediction) {
      args.add("--no-token-prediction");
    }
    return args;
  }

  /**
   * Parses what {@link #toArgs()} wrote.
   *
   * @throws IllegalArgumentException for unknown options or bad values
   */
  public static ClientArgs parse(String... args) {
    int client = 0;
    List<String> nodes = List.of();
    URI storage = null;
    Duration nodeTimeout = Duration.ofMillis(200);
    Duration maxLeaseTtl = Duration.ofSeconds(2);
    Duration storageTimeout = Duration.ofSeconds(2);
    boolean markerCheck = true;
    boolean prediction = true;
    for (int i = 0; i < args.length; i++) {
      String option = args[i];
      switch (option) {
        case "--unsafe-no-marker-check" -> markerCheck = false;
        case "--no-token-prediction" -> prediction = false;
        default -> {
          if (i + 1 >= args.length) {
            throw new IllegalArgumentException("missing value for " + option);
          }
          String value = args[++i];
          switch (option) {
            case "--client" -> client = Integer.parseInt(value);
            case "--nodes" -> nodes = Arrays.asList(value.split(","));
            case "--storage" -> storage = URI.create(value);
            case "--node-timeout-ms" -> nodeTimeout = Duration.ofMillis(Long.parseLong(value));
            case "--max-lease-ttl-ms" -> maxLeaseTtl = Duration.ofMillis(Long.parseLong(value));
            case "--storage-timeout-ms" ->
                storageTimeout = Duration.ofMillis(Long.parseLong(value));
            default -> throw new IllegalArgumentException("unknown option " + option);
          }
        }
      }
    }
    if (nodes.isEmpty() || storage == null) {
      throw new IllegalArgumentException("--nodes and --storage are required");
    }
    return new ClientArgs(
        client, nodes, storage, nodeTimeout, maxLeaseTtl, storageTimeout, markerCheck, prediction);
  }
}
