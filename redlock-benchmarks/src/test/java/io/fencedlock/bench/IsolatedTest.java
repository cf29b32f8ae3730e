package io.fencedlock.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IsolatedTest {
  /** A resource redlock-core ships, so the parent (the benchmark's class path) has it too. */
  private static final String SCRIPT = "io/fencedlock/redlock/lua/release.lua";

  @Test
  void theCopyReadsItsOwnScriptsNotTheClassPaths(@TempDir Path copy) throws IOException {
    assertNotNull(IsolatedTest.class.getClassLoader().getResource(SCRIPT), "parent has it");
    Path script = copy.resolve(SCRIPT);
    Files.createDirectories(script.getParent());
    Files.writeString(script, "-- the copy's script");

    try (Isolated.ChildFirst loader =
            new Isolated.ChildFirst(
                new URL[] {copy.toUri().toURL()}, IsolatedTest.class.getClassLoader());
        InputStream in = loader.getResourceAsStream(SCRIPT)) {
      assertNotNull(in);
      assertEquals("-- the copy's script", new String(in.readAllBytes(), StandardCharsets.UTF_8));
    }
  }
}
