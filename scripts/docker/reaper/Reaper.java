import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.io.ByteArrayOutputStream;
import java.net.UnixDomainSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A stand-in for Testcontainers' Ryuk (testcontainers/ryuk), which cannot be pulled here: the
 * same wire protocol, the same promise. Test JVMs connect to port 8080 and send one line per
 * filter set ({@code label=key%3Dvalue&label=...}, URL-encoded), each answered with {@code ACK}.
 * When the last connection has been gone for {@code RYUK_RECONNECTION_TIMEOUT} seconds (10), or
 * none came within {@code RYUK_CONNECTION_TIMEOUT} (60), every container, network, volume and
 * image matching any filter set is removed through the Docker socket, and the reaper exits.
 *
 * <p>Why a container and not a shutdown hook: a JVM killed with SIGKILL runs no hook, but its
 * socket is still closed by the kernel, and this process, outside the JVM, sees that.
 *
 * <p>Built into {@code fencedlock/ryuk} by scripts/docker-setup (javac on the host, FROM the
 * jlink'd JRE image); Testcontainers uses it through {@code ryuk.container.image}.
 */
public final class Reaper {
  private static final String[] KINDS = {"containers", "networks", "volumes", "images"};

  private final Set<Map<String, List<String>>> filterSets = new LinkedHashSet<>();
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
  private final long reconnectSeconds = seconds("RYUK_RECONNECTION_TIMEOUT", 10);
  private int connections; // guarded by this
  private ScheduledFuture<?> pendingPrune; // guarded by this

  public static void main(String[] args) throws IOException {
    new Reaper().serve(Integer.parseInt(System.getenv().getOrDefault("RYUK_PORT", "8080")));
  }

  private void serve(int port) throws IOException {
    try (ServerSocket server = new ServerSocket(port)) {
      schedulePrune(seconds("RYUK_CONNECTION_TIMEOUT", 60));
      System.out.println("Started (fencedlock reaper on port " + port + ")");
      System.out.flush();
      while (true) {
        Socket client = server.accept();
        Thread thread = new Thread(() -> handle(client), "client-" + client.getPort());
        thread.setDaemon(true);
        thread.start();
      }
    }
  }

  private void handle(Socket client) {
    synchronized (this) {
      connections++;
      if (pendingPrune != null) {
        pendingPrune.cancel(false);
        pendingPrune = null;
      }
    }
    try (client) {
      BufferedReader in = new BufferedReader(
          new InputStreamReader(client.getInputStream(), StandardCharsets.UTF_8));
      OutputStream out = client.getOutputStream();
      String line;
      while ((line = in.readLine()) != null) {
        if (!line.isBlank()) {
          synchronized (this) {
            filterSets.add(parse(line));
          }
          out.write("ACK\n".getBytes(StandardCharsets.UTF_8));
          out.flush();
        }
      }
    } catch (IOException e) {
      System.out.println("connection ended: " + e.getMessage()); // same as a close: its owner is gone
    } finally {
      synchronized (this) {
        if (--connections == 0) {
          schedulePrune(reconnectSeconds);
        }
      }
    }
  }

  private synchronized void schedulePrune(long delaySeconds) {
    pendingPrune = timer.schedule(this::pruneAndExit, delaySeconds, TimeUnit.SECONDS);
  }

  private void pruneAndExit() {
    List<Map<String, List<String>>> sets;
    synchronized (this) {
      sets = new ArrayList<>(filterSets);
    }
    for (Map<String, List<String>> filters : sets) {
      for (String kind : KINDS) {
        prune(kind, filters);
      }
    }
    System.out.println("Removed everything matching " + sets.size() + " filter set(s)");
    System.exit(0);
  }

  private static void prune(String kind, Map<String, List<String>> filters) {
    try {
      String list = Docker.get("/" + kind + (kind.equals("containers") ? "/json?all=1&" : "?")
          + "filters=" + URLEncoder.encode(Docker.json(filters), StandardCharsets.UTF_8));
      Matcher ids = Pattern.compile(kind.equals("volumes") ? "\"Name\":\"([^\"]+)\"" : "\"Id\":\"([^\"]+)\"")
          .matcher(list);
      while (ids.find()) {
        String query = kind.equals("networks") ? "" : kind.equals("containers") ? "?force=1&v=1" : "?force=1";
        Docker.delete("/" + kind + "/" + ids.group(1) + query);
      }
    } catch (IOException e) {
      System.out.println("pruning " + kind + " failed: " + e.getMessage()); // go on with the rest
    }
  }

  /** {@code label=a%3D1&label=b%3D2} to {@code {label: [a=1, b=2]}}. */
  static Map<String, List<String>> parse(String line) {
    Map<String, List<String>> filters = new LinkedHashMap<>();
    for (String pair : line.strip().split("&")) {
      int eq = pair.indexOf('=');
      String key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
      String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
      filters.computeIfAbsent(key, k -> new ArrayList<>()).add(value);
    }
    return filters;
  }

  private static long seconds(String variable, long fallback) {
    String value = System.getenv(variable);
    return value == null || value.isBlank() ? fallback : Long.parseLong(value.strip().replace("s", ""));
  }
}

/** HTTP/1.0 over the Docker socket: no chunked replies, the server closes after each answer. */
final class Docker {
  private static final UnixDomainSocketAddress SOCKET =
      UnixDomainSocketAddress.of(System.getenv().getOrDefault("DOCKER_SOCKET", "/var/run/docker.sock"));

  private Docker() {}

  static String get(String path) throws IOException {
    return call("GET", path);
  }

  static void delete(String path) throws IOException {
    call("DELETE", path);
  }

  private static String call(String method, String path) throws IOException {
    try (SocketChannel channel = SocketChannel.open(SOCKET)) {
      channel.write(ByteBuffer.wrap((method + " " + path + " HTTP/1.0\r\nHost: docker\r\n\r\n")
          .getBytes(StandardCharsets.UTF_8)));
      ByteArrayOutputStream reply = new ByteArrayOutputStream();
      ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
      while (channel.read(buffer) >= 0) {
        reply.write(buffer.array(), 0, buffer.position());
        buffer.clear();
      }
      String text = reply.toString(StandardCharsets.UTF_8);
      String status = text.lines().findFirst().orElse("");
      if (!status.matches("HTTP/1\\.[01] [23]\\d\\d .*") && !status.contains(" 404 ")) {
        throw new IOException(method + " " + path + ": " + status);
      }
      int body = text.indexOf("\r\n\r\n");
      return body < 0 ? "" : text.substring(body + 4);
    }
  }

  static String json(Map<String, List<String>> filters) {
    StringBuilder json = new StringBuilder("{");
    filters.forEach((key, values) -> {
      json.append(json.length() > 1 ? "," : "").append(quote(key)).append(":[");
      for (int i = 0; i < values.size(); i++) {
        json.append(i > 0 ? "," : "").append(quote(values.get(i)));
      }
      json.append(']');
    });
    return json.append('}').toString();
  }

  private static String quote(String text) {
    return '"' + text.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
  }
}
