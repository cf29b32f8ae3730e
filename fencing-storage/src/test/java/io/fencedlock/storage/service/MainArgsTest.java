package io.fencedlock.storage.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

final class MainArgsTest {

  @Test
  void parse_noArguments_ephemeralPortAndDefaultSqliteFile() {
    MainArgs args = MainArgs.parse();

    assertThat(args.port()).isZero();
    assertThat(args.isFilePath()).isTrue();
    assertThat(args.jdbcUrl())
        .isEqualTo("jdbc:sqlite:" + Path.of("fencedlock-data/storage.db").toAbsolutePath());
  }

  @Test
  void parse_portAndJdbcUrl_usedAsGiven() {
    MainArgs args = MainArgs.parse("--port", "8080", "--db", "jdbc:postgresql://h/db");

    assertThat(args.port()).isEqualTo(8080);
    assertThat(args.isFilePath()).isFalse();
    assertThat(args.jdbcUrl()).isEqualTo("jdbc:postgresql://h/db");
  }

  @Test
  void parse_relativeFile_madeAbsolute() {
    MainArgs args = MainArgs.parse("--db", "x/y.db");

    assertThat(args.jdbcUrl()).isEqualTo("jdbc:sqlite:" + Path.of("x/y.db").toAbsolutePath());
  }

  @Test
  void parse_badInput_throwsIllegalArgument() {
    assertThatThrownBy(() -> MainArgs.parse("--port")).hasMessageContaining("missing value");
    assertThatThrownBy(() -> MainArgs.parse("--port", "-1")).hasMessageContaining("0-65535");
    assertThatThrownBy(() -> MainArgs.parse("--port", "65536")).hasMessageContaining("0-65535");
    assertThatThrownBy(() -> MainArgs.parse("--port", "x")).hasMessageContaining("0-65535");
    assertThatThrownBy(() -> MainArgs.parse("--verbose", "1")).hasMessageContaining("unknown");
  }
}
