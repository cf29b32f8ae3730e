package io.fencedlock.bench;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the targets of an earlier {@code --soak} run from soak.json in the output directory, so
 * results.json lists every target of issues 5 and 20; none if no soak ran there.
 */
final class SoakTargets {
  private SoakTargets() {}

  static List<Target> read(Path soakJson) {
    if (!Files.isRegularFile(soakJson)) {
      return List.of();
    }
    try {
      JsonObject root = JsonParser.parseString(Files.readString(soakJson)).getAsJsonObject();
      List<Target> targets = new ArrayList<>();
      for (JsonElement e : root.getAsJsonArray("targets")) {
        JsonObject t = e.getAsJsonObject();
        targets.add(
            new Target(
                t.get("name").getAsString(),
                t.get("value").getAsDouble(),
                t.get("limit").getAsDouble(),
                t.get("atMost").getAsBoolean(),
                t.get("met").getAsBoolean(),
                null,
                null,
                null));
      }
      return targets;
    } catch (IOException e) {
      throw new UncheckedIOException("could not read " + soakJson, e);
    } catch (JsonParseException | IllegalStateException | NullPointerException e) {
      throw new IllegalStateException(
          soakJson + " is not a soak result; delete it or run --soak again", e);
    }
  }
}
