package io.fencedlock.storage;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * HTTP/1.1 over a plain socket, for requests a well-behaved client will not send: odd paths,
 * duplicate headers, lying or huge {@code Content-Length}, chunked bodies. One request per
 * connection ({@code Connection: close}). Not thread-safe; make one per request.
 */
final class RawHttp {

  /** A parsed response; header names are lower-cased. */
  record Response(int status, Map<String, String> headers, byte[] body) {
    String bodyText() {
      return new String(body, StandardCharsets.UTF_8);
    }

    JsonObject json() {
      return JsonParser.parseString(bodyText()).getAsJsonObject();
    }
  }

  private final URI base;

  RawHttp(URI base) {
    this.base = base;
  }

  /**
   * Sends a request whose head is {@code method path} plus {@code headerLines} (each "Name:
   * value"), followed by {@code body} exactly as given (the caller writes any Content-Length or
   * chunk framing), and reads the whole response.
   */
  Response send(String method, String path, String[] headerLines, byte[] body) {
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), base.getPort())) {
      socket.setSoTimeout((int) Timing.SHORT.toMillis());
      StringBuilder head = new StringBuilder();
      head.append(method).append(' ').append(path).append(" HTTP/1.1\r\n");
      head.append("Host: 127.0.0.1:").append(base.getPort()).append("\r\n");
      head.append("Connection: close\r\n");
      for (String line : headerLines) {
        head.append(line).append("\r\n");
      }
      head.append("\r\n");
      OutputStream out = socket.getOutputStream();
      out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
      try {
        out.write(body);
        out.flush();
      } catch (SocketException sendFailed) {
        return earlyResponse(socket, sendFailed);
      }
      return parse(socket.getInputStream());
    } catch (IOException e) {
      throw new UncheckedIOException(method + " " + path + " failed", e);
    }
  }

  /**
   * The response of a server that answered before reading the whole body (an early 413) and
   * then closed with the rest unread, which resets the connection under a client still
   * sending. Like curl, read what it said; the response is already in the receive buffer.
   */
  private static Response earlyResponse(Socket socket, SocketException sendFailed) throws IOException {
    try {
      return parse(socket.getInputStream());
    } catch (IOException unreadable) {
      sendFailed.addSuppressed(unreadable);
      throw sendFailed;
    }
  }

  /** A request with a fixed-length body; Content-Length is added. */
  Response sendWithBody(String method, String path, byte[] body, String... headerLines) {
    String[] lines = new String[headerLines.length + 1];
    System.arraycopy(headerLines, 0, lines, 0, headerLines.length);
    lines[headerLines.length] = "Content-Length: " + body.length;
    return send(method, path, lines, body);
  }

  /** A request without a body. */
  Response send(String method, String path, String... headerLines) {
    return send(method, path, headerLines, new byte[0]);
  }

  /** Frames {@code body} as one chunk plus the terminating chunk. */
  static byte[] chunked(byte[] body) {
    ByteArrayOutputStream framed = new ByteArrayOutputStream();
    byte[] size = (Integer.toHexString(body.length) + "\r\n").getBytes(StandardCharsets.US_ASCII);
    framed.writeBytes(size);
    framed.writeBytes(body);
    framed.writeBytes("\r\n0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
    return framed.toByteArray();
  }

  private static Response parse(InputStream in) throws IOException {
    String statusLine = readLine(in);
    String[] parts = statusLine.split(" ", 3);
    int status = Integer.parseInt(parts[1]);
    Map<String, String> headers = new LinkedHashMap<>();
    for (String line = readLine(in); !line.isEmpty(); line = readLine(in)) {
      int colon = line.indexOf(':');
      headers.put(
          line.substring(0, colon).strip().toLowerCase(Locale.ROOT),
          line.substring(colon + 1).strip());
    }
    String length = headers.get("content-length");
    byte[] body = length == null ? in.readAllBytes() : in.readNBytes(Integer.parseInt(length));
    return new Response(status, headers, body);
  }

  private static String readLine(InputStream in) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    for (int b = in.read(); b != '\n'; b = in.read()) {
      if (b == -1) {
        throw new IOException("connection closed mid-line: " + line);
      }
      if (b != '\r') {
        line.write(b);
      }
    }
    return line.toString(StandardCharsets.ISO_8859_1);
  }
}
