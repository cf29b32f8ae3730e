package io.fencedlock.testkit;

import org.junit.jupiter.api.BeforeEach;

/** The deployment contract on containers. */
final class ContainerDeploymentIT extends DeploymentContract {
  @BeforeEach
  void requireDocker() {
    DockerAssumption.assumeDocker();
  }

  @Override
  Deployment start(int nodes, Persistence persistence) {
    return Backend.CONTAINER.start(nodes, persistence);
  }
}
