package io.fencedlock.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fencedlock.testkit.support.Timing;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What only the container backend has: its image, its network partitions, its cleanup. */
final class ContainerNodesIT {
  /** A command to a node that should answer at once; long enough for a busy machine. */
  private static final Duration SHORT_COMMAND_TIMEOUT = Timing.scaled(Duration.ofMillis(300));

  private ContainerNodes redis;

  @BeforeEach
  void requireDocker() {
    DockerAssumption.assumeDocker();
  }

  @AfterEach
  void closeNodes() {
    if (redis != null) {
      redis.close();
    }
  }

  @Test
  void start_image_runsTheBinaryOfTheProcessBackend() {
    redis = ContainerNodes.start(1);
    try (RedisNodes processes = RedisNodes.start(1)) {
      String inContainer = (String) redis.node(0).command("INFO", "server");
      String inProcess = (String) processes.node(0).command("INFO", "server");

      assertThat(field(inContainer, "redis_build_id"))
          .isEqualTo(field(inProcess, "redis_build_id"));
      assertThat(field(inContainer, "redis_version"))
          .isEqualTo(field(inProcess, "redis_version"))
          .isEqualTo(RedisBinary.locate().version());
      assertThat(field(inContainer, "executable")).isEqualTo(RedisImage.BINARY_IN_IMAGE);
      assertThat(RedisImage.tagOf(RedisBinary.locate()))
          .startsWith("fencedlock/redis:" + RedisBinary.locate().version() + "-");
    }
  }

  @Test
  void networkUri_eachNode_answersOnItsFixedAddressAlsoAfterRestart() {
    redis = ContainerNodes.start(2);
    List<String> addresses = redis.networkUris();

    redis.node(1).restart();

    assertThat(redis.networkUris()).isEqualTo(addresses).doesNotHaveDuplicates();
    for (ContainerNode node : redis.nodes()) {
      assertThat(call(node.networkUri(), "PING")).isEqualTo("PONG");
    }
  }

  @Test
  void disconnect_node_publishedPortRefusesAndNetworkAddressIsSilent() {
    redis = ContainerNodes.start(2);
    ContainerNode node = redis.node(0);
    node.command("SET", "k", "v");

    node.disconnect();

    assertThat(node.isDisconnected()).isTrue();
    assertThat(node.isRunning()).isTrue();
    assertThatThrownBy(() -> node.command(SHORT_COMMAND_TIMEOUT, "PING"))
        .isInstanceOf(UncheckedIOException.class)
        .hasRootCauseInstanceOf(ConnectException.class);
    assertThatThrownBy(() -> call(node.networkUri(), "PING"))
        .isInstanceOf(UncheckedIOException.class)
        .hasRootCauseInstanceOf(SocketTimeoutException.class);
    assertThat(redis.node(1).command("PING")).isEqualTo("PONG");
  }

  @Test
  void reconnect_disconnectedNode_answersWithDataIntactOnBothUris() {
    redis = ContainerNodes.start(1);
    ContainerNode node = redis.node(0);
    node.command("SET", "k", "v");
    node.disconnect();

    node.reconnect();

    assertThat(node.command("GET", "k")).isEqualTo("v");
    assertThat(call(node.networkUri(), "GET", "k")).isEqualTo("v");
  }

  @Test
  void disconnect_openConnections_publishedPortIsClosedNetworkAddressIsSilent() throws IOException {
    redis = ContainerNodes.start(1);
    ContainerNode node = redis.node(0);
    try (Socket published = open(node.uri());
        Socket direct = open(node.networkUri())) {
      node.disconnect();

      assertThat(pingOver(published)).isEqualTo("closed");
      assertThat(pingOver(direct)).isEqualTo("timed out");
    }
  }

  @Test
  void restart_disconnectedNode_staysDisconnectedUntilReconnected() {
    redis = ContainerNodes.start(1, Persistence.AOF_ALWAYS);
    ContainerNode node = redis.node(0);
    node.command("SET", "k", "v");
    node.disconnect();

    node.restart();

    assertThat(node.isDisconnected()).isTrue();
    assertThatThrownBy(() -> node.command(SHORT_COMMAND_TIMEOUT, "PING"))
        .isInstanceOf(UncheckedIOException.class);
    redis.heal();
    assertThat(node.command("GET", "k")).isEqualTo("v");
  }

  @Test
  void restart_portTakenMeanwhile_throwsStartupErrorAndStaysRestartable() throws IOException {
    redis = ContainerNodes.start(1);
    ContainerNode node = redis.node(0);
    node.kill();

    try (ServerSocket squatter =
        new ServerSocket(node.port(), 1, InetAddress.getLoopbackAddress())) {
      assertThatThrownBy(node::restart)
          .isInstanceOf(RedisStartupException.class)
          .hasMessageContaining("another process took its port");
      assertThat(node.isRunning()).isFalse();
    }
    node.restart();

    assertThat(node.command("PING")).isEqualTo("PONG");
  }

  @Test
  void pause_node_freezesItsCgroupInsteadOfSignallingIt() throws IOException {
    redis = ContainerNodes.start(1);
    ContainerNode node = redis.node(0);
    long pid =
        DockerEngine.client()
            .inspectContainerCmd(node.containerId())
            .exec()
            .getState()
            .getPidLong();

    node.pause();

    // SIGSTOP would show the task as stopped ('T'); the freezer leaves no such mark, so a
    // frozen server cannot tell from its own state that it was paused.
    assertThat(procState(pid)).isNotIn('T', 't');
    assertThat(node.isPaused()).isTrue();
  }

  @Test
  void close_deployment_removesContainersVolumesAndNetwork() {
    ContainerNodes nodes = ContainerNodes.start(2, Persistence.AOF_ALWAYS);
    String owner = Long.toString(ProcessHandle.current().pid());
    List<String> names = nodes.nodes().stream().map(n -> "container /" + name(n)).toList();
    assertThat(DockerEngine.objectsLabelled(DockerEngine.OWNER_LABEL, owner)).containsAll(names);

    nodes.close();

    assertThat(DockerEngine.objectsLabelled(DockerEngine.OWNER_LABEL, owner)).isEmpty();
  }

  @Test
  void start_invalidOption_throwsWithArgsAndLogTailAndLeavesNothing() {
    String owner = Long.toString(ProcessHandle.current().pid());

    assertThatThrownBy(
            () ->
                ContainerNodes.builder()
                    .nodes(2)
                    .config("maxmemory-policy", "no-such-policy")
                    .start())
        .isInstanceOf(RedisStartupException.class)
        .hasMessageContaining("exited with code")
        .hasMessageContaining("--maxmemory-policy no-such-policy")
        .hasMessageContaining("--save \"\"")
        .hasMessageContaining("FATAL CONFIG FILE ERROR");
    assertThat(DockerEngine.objectsLabelled(DockerEngine.OWNER_LABEL, owner)).isEmpty();
  }

  private static String name(ContainerNode node) {
    return DockerEngine.client()
        .inspectContainerCmd(node.containerId())
        .exec()
        .getName()
        .substring(1);
  }

  private static Object call(String uri, String... args) {
    URI parsed = URI.create(uri);
    return RespClient.call(parsed.getHost(), parsed.getPort(), SHORT_COMMAND_TIMEOUT, args);
  }

  private static Socket open(String uri) throws IOException {
    URI parsed = URI.create(uri);
    Socket socket = new Socket();
    socket.connect(
        new InetSocketAddress(parsed.getHost(), parsed.getPort()), (int) Timing.AWAIT.toMillis());
    socket.setSoTimeout((int) SHORT_COMMAND_TIMEOUT.toMillis());
    assertThat(pingOver(socket)).isEqualTo("+PONG");
    return socket;
  }

  /** "+PONG", "closed" (EOF or reset) or "timed out". */
  private static String pingOver(Socket socket) {
    try {
      OutputStream out = socket.getOutputStream();
      out.write(RespClient.encode("PING"));
      out.flush();
      InputStream in = socket.getInputStream();
      byte[] reply = new byte[7];
      int read = in.readNBytes(reply, 0, reply.length);
      return read < reply.length ? "closed" : new String(reply, StandardCharsets.US_ASCII).strip();
    } catch (SocketTimeoutException e) {
      return "timed out";
    } catch (IOException e) {
      return "closed";
    }
  }

  private static char procState(long pid) throws IOException {
    String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
    return stat.charAt(stat.lastIndexOf(')') + 2);
  }

  private static String field(String info, String name) {
    Matcher m = Pattern.compile("(?m)^" + name + ":(.*)\r?$").matcher(info);
    assertThat(m.find()).as(name + " in INFO").isTrue();
    return m.group(1).strip();
  }
}
