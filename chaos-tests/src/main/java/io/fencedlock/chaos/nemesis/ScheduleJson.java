package io.fencedlock.chaos.nemesis;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A {@link FaultSchedule} as JSON and back, so that any run (also a shrunk one, which no seed
 * generates) can be replayed from its {@code results.json}. Each fault is {@code {"id", "start",
 * "duration", "type", "fault": {its record components}}}. Stateless; thread-safe.
 */
public final class ScheduleJson {
  private static final Gson GSON = new GsonBuilder().disableHtmlEscaping().create();

  private static final Map<String, Class<? extends Fault>> TYPES =
      Map.ofEntries(
          Map.entry("Partition", Fault.Partition.class),
          Map.entry("Latency", Fault.Latency.class),
          Map.entry("ResetPeer", Fault.ResetPeer.class),
          Map.entry("PauseNodes", Fault.PauseNodes.class),
          Map.entry("KillNodes", Fault.KillNodes.class),
          Map.entry("ClockStep", Fault.ClockStep.class),
          Map.entry("ClientFault", Fault.ClientFault.class),
          Map.entry("StorageFault", Fault.StorageFault.class),
          Map.entry("Toxic", Fault.Toxic.class),
          Map.entry("ClockStrobe", Fault.ClockStrobe.class),
          Map.entry("PowerLoss", Fault.PowerLoss.class),
          Map.entry("ClientClockStep", Fault.ClientClockStep.class));

  private ScheduleJson() {}

  /** The schedule as a JSON array. */
  public static JsonArray toJson(FaultSchedule schedule) {
    JsonArray array = new JsonArray();
    for (ScheduledFault f : schedule.faults()) {
      JsonObject o = new JsonObject();
      o.addProperty("id", f.id());
      o.addProperty("start", f.startMillis());
      o.addProperty("duration", f.durationMillis());
      o.addProperty("type", f.fault().getClass().getSimpleName());
      o.add("fault", GSON.toJsonTree(f.fault()));
      array.add(o);
    }
    return array;
  }

  /**
   * The schedule a {@link #toJson} array describes.
   *
   * @throws IllegalArgumentException if it is not such an array
   */
  public static FaultSchedule fromJson(JsonElement json) {
    try {
      List<ScheduledFault> faults = new ArrayList<>();
      for (JsonElement e : json.getAsJsonArray()) {
        JsonObject o = e.getAsJsonObject();
        Class<? extends Fault> type = TYPES.get(o.get("type").getAsString());
        if (type == null) {
          throw new IllegalArgumentException("unknown fault type " + o.get("type"));
        }
        faults.add(
            new ScheduledFault(
                o.get("id").getAsInt(),
                o.get("start").getAsLong(),
                o.get("duration").getAsLong(),
                GSON.fromJson(o.get("fault"), type)));
      }
      return new FaultSchedule(faults);
    } catch (JsonParseException | IllegalStateException | NullPointerException e) {
      throw new IllegalArgumentException("not a fault schedule: " + e.getMessage(), e);
    }
  }
}
