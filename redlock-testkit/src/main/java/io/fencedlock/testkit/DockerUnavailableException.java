package io.fencedlock.testkit;

/**
 * No Docker engine answers, so container-backed nodes cannot start. The message says why and how to
 * get one ({@code scripts/docker-setup} on Debian as root).
 *
 * <p>Thread-safety: immutable after construction.
 */
public final class DockerUnavailableException extends IllegalStateException {
  /**
   * @param message why no engine could be used
   * @param cause what the Docker client reported
   */
  public DockerUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
