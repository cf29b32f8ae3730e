package io.fencedlock.chaos.client;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The line protocol between the harness and a client process ({@link LockClientMain}): one JSON
 * object per line, on the process's standard input (harness to client) and standard output (client
 * to harness). Whole numbers decode as {@link Long} (tokens need all their digits), others as
 * {@link Double}, objects as maps. Stateless; thread-safe.
 *
 * <p>Harness to client: {@code {"cmd":"op","id":N,"f":"acquire","value":{...}}}, {@code
 * {"cmd":"arm","point":"after-fence"}}, {@code {"cmd":"disarm"}}, {@code {"cmd":"go"}}. Client to
 * harness: {@code {"type":"ready","pid":P}}, {@code {"type":"done","id":N,"outcome":"ok",
 * "value":{...}}}, {@code {"type":"at","point":"after-fence"}} (the client then waits for {@code
 * go}) and {@code {"type":"observe","value":{...}}}.
 */
public final class Wire {
  private static final Gson GSON =
      new GsonBuilder().disableHtmlEscaping().serializeNulls().create();

  private Wire() {}

  /** One line (without its newline) for a message. */
  public static String encode(Map<String, ?> message) {
    return GSON.toJson(message);
  }

  /**
   * The message on one line.
   *
   * @throws IllegalArgumentException if the line is not a JSON object
   */
  public static Map<String, Object> decode(String line) {
    try {
      JsonElement element = JsonParser.parseString(line);
      if (!element.isJsonObject()) {
        throw new IllegalArgumentException("not a JSON object: " + line);
      }
      return toMap(element.getAsJsonObject());
    } catch (JsonParseException e) {
      throw new IllegalArgumentException("not JSON: " + line, e);
    }
  }

  private static Map<String, Object> toMap(JsonObject object) {
    Map<String, Object> map = new LinkedHashMap<>();
    for (Map.Entry<String, JsonElement> e : object.entrySet()) {
      map.put(e.getKey(), toValue(e.getValue()));
    }
    return map;
  }

  private static Object toValue(JsonElement element) {
    if (element.isJsonNull()) {
      return null;
    }
    if (element.isJsonObject()) {
      return toMap(element.getAsJsonObject());
    }
    if (element.isJsonArray()) {
      return element.getAsJsonArray().asList().stream().map(Wire::toValue).toList();
    }
    JsonPrimitive p = element.getAsJsonPrimitive();
    if (p.isBoolean()) {
      return p.getAsBoolean();
    }
    if (p.isNumber()) {
      BigDecimal number = new BigDecimal(p.getAsString());
      try {
        return number.longValueExact();
      } catch (ArithmeticException fraction) {
        return number.doubleValue(); // not a whole number (or out of range): keep it approximate
      }
    }
    return p.getAsString();
  }

  /** A map's string field, or empty when absent. */
  public static String string(Map<String, ?> message, String key) {
    Object v = message.get(key);
    return v == null ? "" : v.toString();
  }

  /** A map's whole-number field, or {@code fallback} when absent. */
  public static long number(Map<String, ?> message, String key, long fallback) {
    return message.get(key) instanceof Number n ? n.longValue() : fallback;
  }

  /** A map's object field, or an empty map when absent. */
  @SuppressWarnings("unchecked")
  public static Map<String, Object> object(Map<String, ?> message, String key) {
    return message.get(key) instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
  }
}
