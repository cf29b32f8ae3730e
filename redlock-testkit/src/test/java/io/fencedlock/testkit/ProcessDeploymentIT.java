package io.fencedlock.testkit;

/** The deployment contract on redis-server processes. */
final class ProcessDeploymentIT extends DeploymentContract {
  @Override
  Deployment start(int nodes, Persistence persistence) {
    return Backend.PROCESS.start(nodes, persistence);
  }
}
