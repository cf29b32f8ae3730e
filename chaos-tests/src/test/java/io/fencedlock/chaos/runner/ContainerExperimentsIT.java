package io.fencedlock.chaos.runner;

import static org.assertj.core.api.Assertions.assertThat;

import io.fencedlock.chaos.fixture.DockerAssumption;
import io.fencedlock.testkit.Backend;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The harness on containers: an experiment of the catalogue with a container per Redis node (kill
 * is {@code docker kill}, pause the cgroup freezer) and the fault proxy in a container run by
 * Testcontainers' {@code ToxiproxyContainer} on the nodes' network, the clients reaching the nodes
 * only through the proxy container's published ports. Same schedule generator, same checkers, same
 * expectation as on processes ({@link ExperimentsIT}). Three majority-down episodes cover a kill, a
 * freeze and a partition whatever the seed. Seeds are random and logged; {@code
 * -Dfencedlock.chaos.seed=N} replays.
 */
final class ContainerExperimentsIT {
  private final ExperimentRunner runner =
      new ExperimentRunner(Path.of("target", "chaos-containers"), System.out, Backend.CONTAINER);

  @Test
  void majorityDown_onContainers_clearFailuresThenRecovery() throws Exception {
    DockerAssumption.assumeDocker();

    RunReport report =
        runner.run(
            Experiments.MAJORITY_DOWN.withFaults(3), Seeds.next("majority-down on containers"));

    assertThat(report.unmet()).as("seed " + report.seed()).isEmpty();
    assertThat(report.schedule().faults())
        .extracting(f -> f.fault().kind())
        .contains("kill-nodes", "pause-nodes", "partition");
    assertThat(Files.readString(report.dir().resolve("results.json")))
        .contains("\"backend\": \"container\"", "\"verdict\": \"PASS\"");
    assertThat(DockerAssumption.ownedByThisJvm()).as("left behind by the run").isEmpty();
  }
}
