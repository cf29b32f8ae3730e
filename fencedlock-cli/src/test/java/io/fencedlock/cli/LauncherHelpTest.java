package io.fencedlock.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.fencedlock.testkit.support.ChildProcess;
import io.fencedlock.testkit.support.Timing;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code ./fencedlock <command> --help} through the real launcher, with {@code mvn}, {@code java},
 * {@code apt-get}, {@code sudo} and {@code docker} first on the PATH as stubs that record being
 * called: help must print the command's usage file (the one its main prints too) and run none of
 * them, so it is instant and changes nothing.
 */
final class LauncherHelpTest {
  private static final Path LAUNCHER = Path.of("..", "fencedlock").toAbsolutePath().normalize();
  private static final List<String> STUBBED = List.of("mvn", "java", "apt-get", "sudo", "docker");

  @TempDir Path dir;
  private Path calls;
  private Map<String, String> env;

  @BeforeEach
  void stubTools() throws IOException {
    Path bin = Files.createDirectories(dir.resolve("bin"));
    calls = dir.resolve("calls");
    String realJava = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    for (String tool : STUBBED) {
      // java runs for real (the launcher asks its version); the others fail, as if absent.
      String then = tool.equals("java") ? "exec '" + realJava + "' \"$@\"" : "exit 1";
      Path stub = bin.resolve(tool);
      Files.writeString(stub, "#!/bin/sh\necho " + tool + " >> '" + calls + "'\n" + then + "\n");
      Files.setPosixFilePermissions(stub, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
    // PG_BIN pointing nowhere: a launcher that looks for PostgreSQL finds none and installs it.
    env = Map.of("PATH", bin + ":/usr/bin:/bin", "PG_BIN", dir.resolve("no-pg").toString());
  }

  @ParameterizedTest
  @ValueSource(strings = {"serve --help", "exec --help", "demo -h", "bench --help"})
  void help_printsTheUsageFileWithoutBuildingOrInstalling(String commandLine) throws IOException {
    String command = commandLine.split(" ")[0];
    try (ChildProcess launcher = launcher(commandLine.split(" "))) {
      assertThat(launcher.awaitExit(Timing.PROCESS)).as(launcher.output()).isZero();
      assertThat(launcher.stdout())
          .isEqualTo(Files.readString(usageFile(command), UTF_8))
          .startsWith("usage: ./fencedlock " + command);
      assertThat(calls).doesNotExist();
    }
  }

  @Test
  void chaosHelp_installsNothing() {
    try (ChildProcess launcher = launcher("chaos", "--help")) {
      launcher.awaitExit(Timing.PROCESS); // builds (stub mvn fails) or prints the help
      assertThat(calls)
          .satisfiesAnyOf(
              c -> assertThat(c).doesNotExist(),
              c -> assertThat(Files.readAllLines(c)).doesNotContain("apt-get", "sudo"));
    }
  }

  private ChildProcess launcher(String... args) {
    List<String> command = new java.util.ArrayList<>(List.of("bash", LAUNCHER.toString()));
    command.addAll(List.of(args));
    return ChildProcess.start(dir, dir, env, command);
  }

  private static Path usageFile(String command) {
    String module = command.equals("bench") ? "redlock-benchmarks" : "fencedlock-cli";
    return LAUNCHER
        .resolveSibling(module)
        .resolve("src/main/resources/fencedlock-usage/" + command + ".txt");
  }
}
