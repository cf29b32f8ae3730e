package io.fencedlock.storage.service;

import io.fencedlock.testkit.support.Timing;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Plain sockets that open a connection to the service and then stall in one phase of a request: in
 * the middle of its head, in the middle of its body, or idle after a complete keep-alive exchange.
 * They only watch what the server does with them. Not thread-safe.
 */
final class StalledConnections implements AutoCloseable {

  /** Where a connection stalls. */
  enum Kind {
    PARTIAL_HEAD,
    PARTIAL_BODY,
    IDLE_KEEP_ALIVE
  }

  /** One stalled connection. */
  record Stalled(Kind kind, Socket socket) {}

  private final URI base;
  private final List<Stalled> open = new ArrayList<>();

  StalledConnections(URI base) {
    this.base = base;
  }

  /** Opens one connection of {@code kind} and leaves it stalled. */
  void open(Kind kind) throws IOException {
    Socket socket = new Socket(base.getHost(), base.getPort());
    open.add(new Stalled(kind, socket));
    socket.setSoTimeout(
        (int) Timing.AWAIT.toMillis()); // a server that stops answering fails, not hangs
    OutputStream out = socket.getOutputStream();
    String host = "Host: " + base.getAuthority() + "\r\n";
    switch (kind) {
      case PARTIAL_HEAD ->
          out.write(ascii("PUT /objects/stalled HTTP/1.1\r\n" + host + "Fencing-To"));
      case PARTIAL_BODY ->
          out.write(
              ascii(
                  "PUT /objects/stalled HTTP/1.1\r\n"
                      + host
                      + "Fencing-Token: 1\r\n"
                      + "Lock-Owner: stalled\r\n"
                      + "Content-Length: 100\r\n\r\n"
                      + "0123456789"));
      case IDLE_KEEP_ALIVE -> {
        out.write(ascii("GET /health HTTP/1.1\r\n" + host + "\r\n"));
        readOneResponse(socket.getInputStream());
      }
    }
    out.flush();
  }

  List<Stalled> all() {
    return List.copyOf(open);
  }

  /** Whether the server still holds the connection open: nothing to read, and no end of stream. */
  static boolean stillOpen(Socket socket) throws IOException {
    socket.setSoTimeout(1);
    try {
      socket.getInputStream().read();
      return false; // an answer or the end of the stream: the server is done with it
    } catch (SocketTimeoutException quiet) {
      return true; // nothing arrived: the server still holds the connection
    } catch (IOException reset) {
      return false;
    }
  }

  /**
   * Reads what the server sends until it closes the connection, waiting at most {@code bound} for
   * each read; returns it, or throws {@link SocketTimeoutException} if the server keeps the
   * connection open that long.
   */
  static String readUntilClosed(Socket socket, Duration bound) throws IOException {
    socket.setSoTimeout((int) bound.toMillis());
    ByteArrayOutputStream received = new ByteArrayOutputStream();
    InputStream in = socket.getInputStream();
    byte[] buffer = new byte[4096];
    try {
      for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
        received.write(buffer, 0, n);
      }
    } catch (SocketTimeoutException stillOpen) {
      throw stillOpen;
    } catch (IOException reset) {
      // A reset is the server closing too (it may drop unread input that way).
    }
    return received.toString(StandardCharsets.ISO_8859_1);
  }

  @Override
  public void close() {
    for (Stalled stalled : open) {
      try {
        stalled.socket().close();
      } catch (IOException e) {
        // Closing our end of a socket the test is finished with; nothing depends on it.
      }
    }
  }

  static void readOneResponse(InputStream in) throws IOException {
    StringBuilder head = new StringBuilder();
    while (!head.toString().endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("closed before the response head ended: " + head);
      }
      head.append((char) b);
    }
    String lower = head.toString().toLowerCase(java.util.Locale.ROOT);
    int at = lower.indexOf("content-length:");
    int length = Integer.parseInt(lower.substring(at + 15, lower.indexOf("\r\n", at)).strip());
    in.readNBytes(length);
  }

  private static byte[] ascii(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }
}
