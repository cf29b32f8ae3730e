package io.fencedlock.chaos.history;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A history as JSON Lines, one op per line: written by every run, read back to check a recorded
 * history again. Stateless and thread-safe.
 */
public final class JsonLines {
  private static final Gson GSON =
      new GsonBuilder().disableHtmlEscaping().serializeNulls().create();

  private JsonLines() {}

  /**
   * Writes {@code history} to {@code file}, replacing it.
   *
   * @throws UncheckedIOException if the file cannot be written
   */
  public static void write(History history, Path file) {
    try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      for (Op op : history.ops()) {
        out.write(GSON.toJson(op.toJsonMap()));
        out.newLine();
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }

  /**
   * Reads a history that {@link #write} wrote.
   *
   * @throws UncheckedIOException if the file cannot be read
   * @throws IllegalArgumentException naming the line that is not an op
   */
  public static History read(Path file) {
    List<String> lines;
    try {
      lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
    List<Op> ops = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).isBlank()) {
        continue;
      }
      try {
        ops.add(op(JsonParser.parseString(lines.get(i)).getAsJsonObject()));
      } catch (RuntimeException e) {
        throw new IllegalArgumentException(file + " line " + (i + 1) + " is not an op: " + e, e);
      }
    }
    return History.of(ops);
  }

  private static Op op(JsonObject o) {
    Map<String, Object> value = new HashMap<>();
    for (Map.Entry<String, JsonElement> e : o.getAsJsonObject("value").entrySet()) {
      if (!e.getValue().isJsonNull()) {
        value.put(e.getKey(), scalar(e.getValue().getAsJsonPrimitive()));
      }
    }
    return new Op(
        o.get("index").getAsLong(),
        o.get("time").getAsLong(),
        OpType.valueOf(o.get("type").getAsString().toUpperCase(Locale.ROOT)),
        process(o.get("process").getAsJsonPrimitive()),
        Fn.valueOf(o.get("f").getAsString().toUpperCase(Locale.ROOT)),
        value);
  }

  /** Values are strings, booleans or numbers; whole numbers were longs when written. */
  private static Object scalar(JsonPrimitive p) {
    if (p.isBoolean()) {
      return p.getAsBoolean();
    }
    if (p.isNumber()) {
      BigDecimal n = p.getAsBigDecimal();
      return n.scale() <= 0 || n.stripTrailingZeros().scale() <= 0
          ? (Object) n.longValueExact()
          : (Object) n.doubleValue();
    }
    return p.getAsString();
  }

  private static int process(JsonPrimitive p) {
    if (p.isNumber()) {
      return p.getAsInt();
    }
    for (int harness : new int[] {Op.NEMESIS, Op.READER, Op.TRIGGER, Op.OBSERVER}) {
      if (Op.processName(harness).equals(p.getAsString())) {
        return harness;
      }
    }
    throw new IllegalArgumentException("unknown process " + p);
  }
}
