package io.fencedlock.cli.demo;

import java.util.List;
import java.util.Objects;

/**
 * Both runs of the demo and where they ran. Immutable and thread-safe.
 *
 * @param fenced the run with fencing tokens checked by the storage service
 * @param unfenced the same steps against a plain register
 * @param nodeUris the Redis nodes the locks used
 * @param storageUrl the storage service's base URL
 */
record DemoResult(RunResult fenced, RunResult unfenced, List<String> nodeUris, String storageUrl) {

  /** Validates and copies the components. */
  DemoResult {
    Objects.requireNonNull(fenced, "fenced");
    Objects.requireNonNull(unfenced, "unfenced");
    nodeUris = List.copyOf(nodeUris);
    Objects.requireNonNull(storageUrl, "storageUrl");
  }

  /** Both runs in display order. */
  List<RunResult> runs() {
    return List.of(fenced, unfenced);
  }

  /** Whether both runs showed what they should. */
  boolean asExpected() {
    return fenced.asExpected() && unfenced.asExpected();
  }
}
