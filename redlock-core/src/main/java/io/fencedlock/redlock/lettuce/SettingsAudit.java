package io.fencedlock.redlock.lettuce;

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
final class SettingsAudit {

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
  static CompletableFuture<List<String>> warnings(List<NodeClient> nodes) {
    List<CompletableFuture<String>> problems = new ArrayList<>();
    for (NodeClient node : nodes) {
      problems.add(problemsOf(node));
    }
    return CompletableFuture.allOf(problems.toArray(CompletableFuture[]::new))
        .thenApply(
            done -> {
              Map<String, List<String>> nodesByProblem = new LinkedHashMap<>();
              for (int i = 0; i < nodes.size(); i++) {
                for (String problem : problems.get(i).join().split("\n")) {
                  if (!problem.isEmpty()) {
                    nodesByProblem
                        .computeIfAbsent(problem, p -> new ArrayList<>())
                        .add(nodes.get(i).label());
                  }
                }
              }
              List<String> warnings = new ArrayList<>();
              nodesByProblem.forEach(
                  (problem, labels) -> warnings.add("Redis nodes " + labels + " " + problem));
              return warnings;
            });
  }

  /** A node's problems, one per line; the future never fails. */
  private static CompletableFuture<String> problemsOf(NodeClient node) {
    CompletableFuture<Map<String, String>> policy = node.configGet("maxmemory-policy");
    CompletableFuture<Map<String, String>> maxmemory = node.configGet("maxmemory");
    CompletableFuture<Map<String, String>> aof = node.configGet("appendonly");
    CompletableFuture<Map<String, String>> fsync = node.configGet("appendfsync");
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
