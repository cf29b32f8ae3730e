package io.fencedlock.junit;

import java.util.Optional;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.opentest4j.TestAbortedException;

/**
 * What to do when container nodes are wanted and no Docker engine answers: skip, with the reason,
 * on a developer's machine; fail in CI ({@code CI=true}), where an engine was to be prepared and a
 * run must not pass by skipping. Stateless.
 */
final class DockerRequirement {
  private DockerRequirement() {}

  /**
   * @param unavailable why no engine answers, or empty if one does
   * @param ci whether this is a CI run
   * @return nothing if the tests can run, else the exception that skips or fails them
   */
  static Optional<RuntimeException> check(Optional<String> unavailable, boolean ci) {
    if (unavailable.isEmpty()) {
      return Optional.empty();
    }
    if (ci) {
      return Optional.of(
          new ExtensionConfigurationException(
              "container nodes requested and CI=true, but " + unavailable.get()));
    }
    return Optional.of(new TestAbortedException("container tests skipped: " + unavailable.get()));
  }

  static boolean isCi() {
    return "true".equalsIgnoreCase(System.getenv("CI"));
  }
}
