package io.fencedlock.chaos.runner;

import io.fencedlock.testkit.RedisBinary;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.concurrent.TimeUnit;

/**
 * What a run ran on, for its results: the Redis binary (version, path and the first 12 hex digits
 * of its SHA-256, so that campaigns can be compared binary for binary), the commit of this tree,
 * and how clock faults were applied. Immutable.
 *
 * @param redisVersion {@code redis-server --version}'s version
 * @param redisBinary the binary's path
 * @param redisSha256 the first 12 hex digits of the binary's SHA-256
 * @param commit {@code git rev-parse --short HEAD}, with {@code -dirty} if the tree has changes, or
 *     "unknown" outside a Git tree
 * @param clockModel {@code libfaketime} (node clocks really move), {@code pttl-model} (lock keys
 *     re-expired instead) or {@code none}
 */
public record RunEnvironment(
    String redisVersion, String redisBinary, String redisSha256, String commit, String clockModel) {

  private static RunEnvironment machine; // guarded by RunEnvironment.class

  /** The machine's part, computed once: the binary the test kit resolves, and the commit. */
  static synchronized RunEnvironment machine() {
    if (machine == null) {
      RedisBinary binary = RedisBinary.locate();
      machine =
          new RunEnvironment(
              binary.version(), binary.path().toString(), sha256(binary), gitCommit(), "none");
    }
    return machine;
  }

  /** This environment with the given clock model. */
  RunEnvironment withClockModel(String model) {
    return new RunEnvironment(redisVersion, redisBinary, redisSha256, commit, model);
  }

  private static String sha256(RedisBinary binary) {
    try (InputStream in = Files.newInputStream(binary.path())) {
      MessageDigest d = MessageDigest.getInstance("SHA-256");
      byte[] buf = new byte[1 << 16];
      for (int n; (n = in.read(buf)) > 0; ) {
        d.update(buf, 0, n);
      }
      return HexFormat.of().formatHex(d.digest()).substring(0, 12);
    } catch (IOException | NoSuchAlgorithmException e) {
      return "unknown";
    }
  }

  private static String gitCommit() {
    String head = git("rev-parse", "--short", "HEAD");
    if (head.isEmpty()) {
      return "unknown";
    }
    return git("status", "--porcelain", "--untracked-files=no").isEmpty() ? head : head + "-dirty";
  }

  private static String git(String... args) {
    String[] command = new String[args.length + 1];
    command[0] = "git";
    System.arraycopy(args, 0, command, 1, args.length);
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      p.getOutputStream().close();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0 ? out : "";
    } catch (IOException e) {
      return ""; // no git here: the commit is unknown, which the results say
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "";
    }
  }
}
