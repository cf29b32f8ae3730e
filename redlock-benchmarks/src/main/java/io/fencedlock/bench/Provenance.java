package io.fencedlock.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The line a run's results.md starts with: the command and the commit that made it, so a run copied
 * into docs/ says where it came from (issue 41). The commit is the checkout's HEAD, marked when the
 * checkout had uncommitted changes.
 */
final class Provenance {
  private Provenance() {}

  /**
   * @param args the command line {@code ./fencedlock bench} was given
   * @param checkout a directory inside the git checkout the benchmark was built from
   */
  static String line(List<String> args, Path checkout) {
    String command = String.join(" ", prepend("./fencedlock bench", args));
    return "Made by `" + command + "` at commit " + commit(checkout) + ".\n\n";
  }

  private static List<String> prepend(String head, List<String> args) {
    return Stream.concat(Stream.of(head), args.stream()).toList();
  }

  /**
   * HEAD's short hash in backquotes, followed by " (uncommitted changes)" when tracked files differ
   * from it; "unknown (...)" when git or the checkout is missing.
   */
  static String commit(Path checkout) {
    String head = git(checkout, "rev-parse", "--short", "HEAD");
    if (head.isEmpty()) {
      return "unknown (no git checkout at " + checkout + ")";
    }
    String changes = git(checkout, "status", "--porcelain", "--untracked-files=no");
    return changes.isEmpty() ? "`" + head + "`" : "`" + head + "` (uncommitted changes)";
  }

  /** The command's trimmed output, or "" if git is missing or fails. */
  private static String git(Path dir, String... args) {
    List<String> command = prepend("git", List.of(args));
    try {
      Process git =
          new ProcessBuilder(command)
              .directory(dir.toFile())
              .redirectError(ProcessBuilder.Redirect.DISCARD)
              .start();
      String out = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      return git.waitFor() == 0 ? out : "";
    } catch (IOException e) {
      return "";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "";
    }
  }
}
