package io.fencedlock.faultproxy;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * JSON in and out of the API, with Gson. Decoding follows Go's {@code encoding/json} where it
 * shows: unknown fields are ignored, JSON null leaves a field unset, and a wrong type is a {@code
 * bad request body} error. Stateless and thread-safe.
 */
final class JsonMapping {

  private static final Gson GSON = new GsonBuilder().disableHtmlEscaping().create();

  private JsonMapping() {}

  /** Parses a proxy create or update body. */
  static ProxyRequest proxyRequest(String body) {
    return proxyRequest(parse(body), "Proxy");
  }

  /** Parses a /populate body: a JSON array of proxies. */
  static List<ProxyRequest> populateRequest(String body) {
    JsonElement json = parse(body);
    if (json.isJsonNull()) {
      return List.of();
    }
    if (!json.isJsonArray()) {
      throw mismatch(json, "Go value", "[]struct { toxiproxy.Proxy; Enabled *bool }");
    }
    List<ProxyRequest> requests = new ArrayList<>();
    for (JsonElement entry : json.getAsJsonArray()) {
      requests.add(proxyRequest(entry, "Proxy"));
    }
    return requests;
  }

  /** Parses a toxic create body. */
  static ToxicRequest toxicRequest(String body) {
    JsonObject json = object(parse(body), "toxics.ToxicWrapper");
    return new ToxicRequest(
        string(json, "name", "ToxicWrapper"),
        string(json, "type", "ToxicWrapper"),
        string(json, "stream", "ToxicWrapper"),
        number(json, "toxicity"),
        field(json, "attributes"));
  }

  /** Parses a toxic update body. */
  static ToxicPatch toxicPatch(String body) {
    JsonObject json = object(parse(body), "struct { Attributes interface {}; Toxicity float32 }");
    return new ToxicPatch(field(json, "attributes"), number(json, "toxicity"));
  }

  /**
   * Decodes the attributes present in {@code json} that {@code type} knows; others are ignored.
   * Values must be JSON integers, as Go decodes them into int64.
   */
  static Map<String, Long> attributes(ToxicType type, @Nullable JsonElement json) {
    Map<String, Long> values = new LinkedHashMap<>();
    if (json == null) {
      return values;
    }
    JsonObject object = object(json, "toxics." + type.wireName());
    for (String name : type.attributeNames()) {
      JsonElement value = field(object, name);
      if (value != null) {
        values.put(name, integer(value, name));
      }
    }
    return values;
  }

  static JsonObject proxyJson(ProxyView proxy) {
    JsonObject json = new JsonObject();
    json.addProperty("name", proxy.name());
    json.addProperty("listen", proxy.listen());
    json.addProperty("upstream", proxy.upstream());
    json.addProperty("enabled", proxy.enabled());
    JsonArray toxics = new JsonArray();
    proxy.toxics().forEach(toxic -> toxics.add(toxicJson(toxic)));
    json.add("toxics", toxics);
    return json;
  }

  /** GET /proxies: an object keyed by proxy name. */
  static JsonObject proxiesByName(List<ProxyView> proxies) {
    JsonObject json = new JsonObject();
    proxies.forEach(proxy -> json.add(proxy.name(), proxyJson(proxy)));
    return json;
  }

  static JsonArray proxyArray(List<ProxyView> proxies) {
    JsonArray json = new JsonArray();
    proxies.forEach(proxy -> json.add(proxyJson(proxy)));
    return json;
  }

  static JsonObject toxicJson(ToxicConfig toxic) {
    JsonObject json = new JsonObject();
    json.addProperty("name", toxic.name());
    json.addProperty("type", toxic.type().wireName());
    json.addProperty("stream", toxic.direction().wireName());
    json.addProperty("toxicity", toxic.toxicity());
    JsonObject attributes = new JsonObject();
    toxic
        .attributes()
        .forEach(
            (name, value) -> {
              if (value != 0 || !toxic.type().isExtension(name)) {
                attributes.addProperty(name, value);
              }
            });
    json.add("attributes", attributes);
    return json;
  }

  static JsonArray toxicArray(List<ToxicConfig> toxics) {
    JsonArray json = new JsonArray();
    toxics.forEach(toxic -> json.add(toxicJson(toxic)));
    return json;
  }

  /** {@code {"error":..,"status":..}}, plus {@code proxies} for a /populate failure. */
  static JsonObject errorJson(ApiException error) {
    JsonObject json = new JsonObject();
    json.addProperty("error", error.getMessage());
    json.addProperty("status", error.status());
    List<ProxyView> applied = error.proxies();
    if (applied != null) {
      json.add("proxies", proxyArray(applied));
    }
    return json;
  }

  static String write(JsonElement json) {
    return GSON.toJson(json);
  }

  private static JsonElement parse(String body) {
    if (body.isBlank()) {
      throw ApiException.badRequestBody("EOF"); // what Go's decoder reports for an empty body
    }
    try {
      return JsonParser.parseString(body);
    } catch (JsonParseException e) {
      String message = String.valueOf(e.getMessage());
      int hint = message.indexOf("\nSee ");
      throw ApiException.badRequestBody(hint < 0 ? message : message.substring(0, hint));
    }
  }

  private static ProxyRequest proxyRequest(JsonElement element, String goType) {
    JsonObject json = object(element, "toxiproxy." + goType);
    JsonElement enabled = field(json, "enabled");
    if (enabled != null
        && !(enabled.isJsonPrimitive() && enabled.getAsJsonPrimitive().isBoolean())) {
      throw mismatch(enabled, "Go struct field " + goType + ".enabled", "bool");
    }
    return new ProxyRequest(
        string(json, "name", goType),
        string(json, "listen", goType),
        string(json, "upstream", goType),
        enabled == null ? null : enabled.getAsBoolean());
  }

  private static JsonObject object(JsonElement json, String goType) {
    if (json.isJsonNull()) {
      return new JsonObject(); // Go decodes null into a struct as "no fields set"
    }
    if (!json.isJsonObject()) {
      throw mismatch(json, "Go value", goType);
    }
    return json.getAsJsonObject();
  }

  private static @Nullable JsonElement field(JsonObject json, String name) {
    JsonElement value = json.get(name);
    return value == null || value instanceof JsonNull ? null : value;
  }

  private static @Nullable String string(JsonObject json, String name, String goType) {
    JsonElement value = field(json, name);
    if (value == null) {
      return null;
    }
    if (!value.isJsonPrimitive() || !value.getAsJsonPrimitive().isString()) {
      throw mismatch(value, "Go struct field " + goType + "." + name, "string");
    }
    return value.getAsString();
  }

  private static @Nullable Float number(JsonObject json, String name) {
    JsonElement value = field(json, name);
    if (value == null) {
      return null;
    }
    if (!value.isJsonPrimitive() || !value.getAsJsonPrimitive().isNumber()) {
      throw mismatch(value, "Go struct field ." + name, "float32");
    }
    return value.getAsFloat();
  }

  private static long integer(JsonElement value, String name) {
    if (value.isJsonPrimitive() && value.getAsJsonPrimitive().isNumber()) {
      String text = value.getAsString();
      try {
        return Long.parseLong(text);
      } catch (NumberFormatException e) {
        throw ApiException.badRequestBody(
            "json: cannot unmarshal number "
                + text
                + " into Go struct field .attributes."
                + name
                + " of type int64");
      }
    }
    throw mismatch(value, "Go struct field .attributes." + name, "int64");
  }

  private static ApiException mismatch(JsonElement value, String target, String goType) {
    return ApiException.badRequestBody(
        "json: cannot unmarshal " + kind(value) + " into " + target + " of type " + goType);
  }

  private static String kind(JsonElement value) {
    if (value.isJsonObject()) {
      return "object";
    }
    if (value.isJsonArray()) {
      return "array";
    }
    JsonPrimitive primitive = value.getAsJsonPrimitive();
    return primitive.isBoolean() ? "bool" : primitive.isNumber() ? "number" : "string";
  }
}
