package io.fencedlock.chaos.runner;

import io.fencedlock.testkit.Deployment;
import io.fencedlock.testkit.RedisBinary;
import io.fencedlock.testkit.RedisNode;
import io.fencedlock.testkit.RedisNodes;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The one redis-server binary a campaign runs, resolved once at its start (version, path and
 * SHA-256 of the file), and the check that a cluster's nodes run exactly that binary: each node's
 * {@code INFO server} must report the pinned version and an executable at the pinned path, and the
 * image the node's process runs ({@code /proc/<pid>/exe}) must hash to the pinned SHA-256. A
 * campaign compares runs binary for binary only if no node ran another binary (one swapped under
 * the path, or another {@code REDIS_SERVER} in a child's environment). Nodes in containers run the
 * image's binary, which this does not check. Immutable.
 *
 * @param version {@code redis-server --version}'s version
 * @param path the binary's absolute path
 * @param sha256 the file's SHA-256, 64 hex digits
 */
public record PinnedBinary(String version, Path path, String sha256) {

  /** Pins the binary the test kit resolves ({@link RedisBinary#locate()}) as it is now. */
  public static PinnedBinary resolve() {
    RedisBinary binary = RedisBinary.locate();
    return new PinnedBinary(binary.version(), binary.path(), sha256(binary.path()));
  }

  /**
   * Checks every node of a process deployment.
   *
   * @throws IllegalStateException naming the first node that runs another binary
   */
  public void verify(Deployment nodes) {
    if (!(nodes instanceof RedisNodes processes)) {
      return; // containers run their image's binary
    }
    for (RedisNode node : processes.nodes()) {
      verify(node);
    }
  }

  private void verify(RedisNode node) {
    String info = String.valueOf(node.command("INFO", "server"));
    String version = field(info, "redis_version");
    Path executable = Path.of(field(info, "executable"));
    Path image = Path.of("/proc", Long.toString(node.pid()), "exe");
    if (!Files.isReadable(image)) {
      // Hashing the file at the path instead would not say what the process runs.
      throw new IllegalStateException(
          "cannot read " + image + ", the image node n" + node.index() + " runs");
    }
    String sha = sha256(image);
    if (!version.equals(this.version) || !samePath(executable) || !sha.equals(sha256)) {
      throw new IllegalStateException(
          "node n"
              + node.index()
              + " runs redis-server "
              + version
              + " at "
              + executable
              + " (sha256 "
              + sha
              + "), not the campaign's pinned binary: "
              + describe());
    }
  }

  private boolean samePath(Path executable) {
    try {
      return Files.isSameFile(executable, path);
    } catch (IOException e) {
      return false; // a path that cannot be read is not the pinned binary
    }
  }

  /** One line for reports: version, path and SHA-256. */
  public String describe() {
    return "redis-server " + version + " at " + path + " (sha256 " + sha256 + ")";
  }

  private static String field(String info, String name) {
    for (String line : info.split("\r?\n")) {
      if (line.startsWith(name + ":")) {
        return line.substring(name.length() + 1).strip();
      }
    }
    throw new IllegalStateException("INFO server has no " + name + ": " + info);
  }

  /** The SHA-256 of a file, 64 hex digits. */
  static String sha256(Path file) {
    try (InputStream in = Files.newInputStream(file)) {
      MessageDigest d = MessageDigest.getInstance("SHA-256");
      byte[] buf = new byte[1 << 16];
      for (int n; (n = in.read(buf)) > 0; ) {
        d.update(buf, 0, n);
      }
      return HexFormat.of().formatHex(d.digest());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot hash " + file, e);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
