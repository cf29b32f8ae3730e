package io.fencedlock.chaos.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The standalone entry point: argument parsing, and a real process stopped by SIGTERM. */
final class FaultProxyMainTest {

    @Test
    void parse_noArguments_defaultsToLoopback8474() {
        assertThat(FaultProxyMain.parse(new String[0]))
                .contains(new FaultProxyMain.Options("127.0.0.1", 8474, OptionalLong.empty()));
    }

    @Test
    void parse_allOptions_areRead() {
        assertThat(FaultProxyMain.parse(new String[] {"--host", "0.0.0.0", "--port", "0", "--seed", "-5"}))
                .contains(new FaultProxyMain.Options("0.0.0.0", 0, OptionalLong.of(-5)));
    }

    @Test
    void parse_help_returnsEmpty() {
        assertThat(FaultProxyMain.parse(new String[] {"--help"})).isEmpty();
    }

    @Test
    void parse_badArguments_throwWithClearMessage() {
        assertThatThrownBy(() -> FaultProxyMain.parse(new String[] {"--port", "http"}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--port");
        assertThatThrownBy(() -> FaultProxyMain.parse(new String[] {"--port", "70000"}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("65535");
        assertThatThrownBy(() -> FaultProxyMain.parse(new String[] {"--host"}))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("--host needs a value");
        assertThatThrownBy(() -> FaultProxyMain.parse(new String[] {"--verbose"}))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("unknown argument --verbose");
    }

    @Test
    void main_badArgument_exitsWithUsage() throws IOException, InterruptedException {
        Process process = launch("--port", "nope");

        assertThat(process.waitFor(Timing.await().toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        assertThat(process.exitValue()).isEqualTo(2);
        String stderr = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(stderr).contains("--port must be a number").contains("usage: FaultProxyMain");
    }

    @Test
    @Timeout(60) // the reads below block on the child's output; never hang the build
    void main_sigterm_printsUrlThenStopsCleanly() throws IOException, InterruptedException {
        Process process = launch("--port", "0", "--seed", "11");
        try {
            BufferedReader out = new BufferedReader(
                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            String banner = out.readLine();
            assertThat(banner).matches("fault proxy listening on http://127\\.0\\.0\\.1:\\d+ \\(seed 11\\)");

            // SIGTERM via the handle: Process.destroy() would also close our end of its stdout.
            assertThat(process.toHandle().destroy()).isTrue();

            // Read before waiting: once the process is reaped its pipe may already be closed.
            assertThat(out.readLine()).isEqualTo("fault proxy stopped");
            assertThat(process.waitFor(Timing.await().toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        } finally {
            process.destroyForcibly();
        }
    }

    private static Process launch(String... args) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "-cp", System.getProperty("java.class.path"),
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", FaultProxyMain.class.getName()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).start();
    }
}
