package io.fencedlock.testkit;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Container tests need a Docker engine. Without one they are skipped, with one line in the log
 * saying why, so that the rest of the suite still runs on a machine without Docker; in CI ({@code
 * CI=true}) a missing engine fails them instead, since CI prepares one ({@code .ci/run} runs
 * scripts/docker-setup) and must not pass by skipping.
 */
final class DockerAssumption {
  private static final Logger LOG = LoggerFactory.getLogger(DockerAssumption.class);
  private static final AtomicBoolean SAID = new AtomicBoolean();

  private DockerAssumption() {}

  static void assumeDocker() {
    Optional<String> reason = DockerEngine.unavailableReason();
    if (reason.isEmpty()) {
      return;
    }
    if ("true".equalsIgnoreCase(System.getenv("CI"))) {
      fail("CI=true but " + reason.get());
    }
    if (SAID.compareAndSet(false, true)) {
      LOG.warn("Container tests skipped: {}", reason.get());
    }
    assumeTrue(false, "container tests skipped: " + reason.get());
  }
}
