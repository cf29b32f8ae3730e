package io.fencedlock.redlock.driver;

import io.fencedlock.redlock.spi.NodeFailures;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Reads the node settings that silently break the lock or its tokens, so a deployment hears about
 * them at start-up rather than after an incident. Nodes that refuse CONFIG GET (renamed or
 * disabled, as on some managed services) are reported as not checkable. Thread-safe.
 */
public final class SettingsAudit {

  /** Reads one CONFIG GET parameter of a node (empty map if unknown), bounded by a timeout. */
  @FunctionalInterface
  public interface ConfigReader {
    CompletableFuture<Map<String, String>> configGet(int node, String parameter);
  }

  private static final String EVICTS =
      "evict keys (maxmemory-policy is not noeviction): locks and fence counters can vanish";
  private static final String NO_AOF =
      "have appendonly off: a restart loses locks and fence counters; such a node is excluded "
          + "until re-admitted after maxLeaseTtl";
  private static final String LAZY_FSYNC =
      "have appendfsync other than always: a crash can silently lose the newest fence counters";
  private static final String UNCHECKED =
      "refuse CONFIG GET, so their persistence cannot be checked";

  private SettingsAudit() {}

  /** Completes with one warning per problem, naming the nodes that have it; never fails. */
  public static CompletableFuture<List<String>> warnings(List<String> labels, ConfigReader nodes) {
    List<CompletableFuture<String>> problems = new ArrayList<>();
    for (int node = 0; node < labels.size(); node++) {
      problems.add(problemsOf(nodes, node));
    }
    return CompletableFuture.allOf(problems.toArray(CompletableFuture[]::new))
        .thenApply(
            done -> {
              Map<String, List<String>> nodesByProblem = new LinkedHashMap<>();
              for (int i = 0; i < labels.size(); i++) {
                for (String problem : problems.get(i).join().split("\n")) {
                  if (!problem.isEmpty()) {
                    nodesByProblem
                        .computeIfAbsent(problem, p -> new ArrayList<>())
                        .add(labels.get(i));
                  }
                }
              }
              List<String> warnings = new ArrayList<>();
              nodesByProblem.forEach(
                  (problem, named) -> warnings.add("Redis nodes " + named + " " + problem));
              return warnings;
            });
  }

  /** A node's problems, one per line; the future never fails. */
  private static CompletableFuture<String> problemsOf(ConfigReader nodes, int node) {
    CompletableFuture<Map<String, String>> policy = nodes.configGet(node, "maxmemory-policy");
    CompletableFuture<Map<String, String>> maxmemory = nodes.configGet(node, "maxmemory");
    CompletableFuture<Map<String, String>> aof = nodes.configGet(node, "appendonly");
    CompletableFuture<Map<String, String>> fsync = nodes.configGet(node, "appendfsync");
    return CompletableFuture.allOf(policy, maxmemory, aof, fsync)
        .thenApply(
            done -> {
              StringBuilder problems = new StringBuilder();
              if (!"0".equals(value(maxmemory, "maxmemory"))
                  && !"noeviction".equals(value(policy, "maxmemory-policy"))) {
                problems.append(EVICTS).append('\n');
              }
              if (!"yes".equals(value(aof, "appendonly"))) {
                problems.append(NO_AOF).append('\n');
              } else if (!"always".equals(value(fsync, "appendfsync"))) {
                problems.append(LAZY_FSYNC).append('\n');
              }
              return problems.toString();
            })
        // CONFIG disabled, or the node is down (then acquires report it anyway).
        .exceptionally(
            failure -> NodeFailures.describe(failure).contains("not connected") ? "" : UNCHECKED);
  }

  private static String value(CompletableFuture<Map<String, String>> reply, String parameter) {
    return reply.join().getOrDefault(parameter, "");
  }
}
