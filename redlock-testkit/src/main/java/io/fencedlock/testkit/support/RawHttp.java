package io.fencedlock.testkit.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * HTTP/1.1 over a plain socket, for the requests a well-behaved client will not send or whose
 * answers it hides: odd paths, duplicate or missing headers, lying or huge {@code Content-Length},
 * chunked bodies, PATCH, error bodies. One request per connection ({@code Connection: close}); the
 * response is read whole, framed by {@code Content-Length}, chunked encoding or the end of the
 * stream. Reads time out after {@link Timing#AWAIT}.
 *
 * <p>Thread-safe: stateless, every request opens its own connection.
 */
public final class RawHttp {

  /**
   * A parsed response. Header names are lower-cased; a repeated header keeps its last value.
   *
   * @param status the status code
   * @param headers the headers, in order
   * @param body the body, de-chunked
   */
  public record Response(int status, Map<String, String> headers, byte[] body) {
    /** The body as UTF-8 text. */
    public String bodyText() {
      return new String(body, StandardCharsets.UTF_8);
    }

    /** A header's value; {@code name} is case-insensitive. */
    public Optional<String> header(String name) {
      return Optional.ofNullable(headers.get(name.toLowerCase(Locale.ROOT)));
    }
  }

  private final URI base;

  /** A client for the server at {@code base}, e.g. {@code http://127.0.0.1:8474}. */
  public RawHttp(URI base) {
    this.base = base;
  }

  /** A client for the server at {@code baseUrl}. */
  public RawHttp(String baseUrl) {
    this(URI.create(baseUrl));
  }

  /** {@code GET path}. */
  public Response get(String path) {
    return send("GET", path);
  }

  /** {@code DELETE path}. */
  public Response delete(String path) {
    return send("DELETE", path);
  }

  /** {@code POST path} with a JSON body. */
  public Response post(String path, String json) {
    return sendWithBody(
        "POST", path, json.getBytes(StandardCharsets.UTF_8), "Content-Type: application/json");
  }

  /** {@code PATCH path} with a JSON body. */
  public Response patch(String path, String json) {
    return sendWithBody(
        "PATCH", path, json.getBytes(StandardCharsets.UTF_8), "Content-Type: application/json");
  }

  /** A request without a body; {@code headerLines} are "Name: value". */
  public Response send(String method, String path, String... headerLines) {
    return send(method, path, headerLines, new byte[0]);
  }

  /** A request with a fixed-length body; Content-Length is added after {@code headerLines}. */
  public Response sendWithBody(String method, String path, byte[] body, String... headerLines) {
    String[] lines = new String[headerLines.length + 1];
    System.arraycopy(headerLines, 0, lines, 0, headerLines.length);
    lines[headerLines.length] = "Content-Length: " + body.length;
    return send(method, path, lines, body);
  }

  /**
   * Sends a request whose head is {@code method path}, {@code Host}, {@code Connection: close} and
   * {@code headerLines} (each "Name: value"), followed by {@code body} exactly as given (the caller
   * writes any Content-Length or chunk framing), and reads the whole response.
   *
   * @throws UncheckedIOException if the exchange fails
   */
  public Response send(String method, String path, String[] headerLines, byte[] body) {
    StringBuilder head = new StringBuilder();
    head.append(method).append(' ').append(path).append(" HTTP/1.1\r\n");
    head.append("Host: ").append(hostHeader()).append("\r\n");
    head.append("Connection: close\r\n");
    for (String line : headerLines) {
      head.append(line).append("\r\n");
    }
    head.append("\r\n");
    byte[] headBytes = head.toString().getBytes(StandardCharsets.ISO_8859_1);
    byte[] request = new byte[headBytes.length + body.length];
    System.arraycopy(headBytes, 0, request, 0, headBytes.length);
    System.arraycopy(body, 0, request, headBytes.length, body.length);
    return exchange(request, method + " " + path);
  }

  /**
   * Sends {@code request} verbatim (request line, headers and body, all framing the caller's) on a
   * fresh connection and reads the whole response.
   *
   * @throws UncheckedIOException if the exchange fails
   */
  public Response sendVerbatim(String request) {
    return exchange(
        request.getBytes(StandardCharsets.ISO_8859_1), request.lines().findFirst().orElse(request));
  }

  /** The value for a Host header: the base URL's host and port. */
  public String hostHeader() {
    return base.getAuthority();
  }

  /** Frames {@code body} as one chunk plus the terminating chunk. */
  public static byte[] chunked(byte[] body) {
    ByteArrayOutputStream framed = new ByteArrayOutputStream();
    framed.writeBytes(
        (Integer.toHexString(body.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
    framed.writeBytes(body);
    framed.writeBytes("\r\n0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
    return framed.toByteArray();
  }

  private Response exchange(byte[] request, String description) {
    try (Socket socket = new Socket(base.getHost(), base.getPort())) {
      socket.setSoTimeout((int) Timing.AWAIT.toMillis());
      OutputStream out = socket.getOutputStream();
      try {
        out.write(request);
        out.flush();
      } catch (SocketException sendFailed) {
        return earlyResponse(socket, sendFailed);
      }
      return parse(socket.getInputStream());
    } catch (IOException e) {
      throw new UncheckedIOException(description + " failed", e);
    }
  }

  /**
   * The response of a server that answered before reading the whole body (an early 413) and then
   * closed with the rest unread, which resets the connection under a client still sending. Like
   * curl, read what it said; the response is already in the receive buffer.
   */
  private static Response earlyResponse(Socket socket, SocketException sendFailed)
      throws IOException {
    try {
      return parse(socket.getInputStream());
    } catch (IOException unreadable) {
      sendFailed.addSuppressed(unreadable);
      throw sendFailed;
    }
  }

  private static Response parse(InputStream in) throws IOException {
    String statusLine = readLine(in);
    String[] parts = statusLine.split(" ", 3);
    if (parts.length < 2) {
      throw new IOException("not an HTTP status line: " + statusLine);
    }
    int status = Integer.parseInt(parts[1]);
    Map<String, String> headers = new LinkedHashMap<>();
    for (String line = readLine(in); !line.isEmpty(); line = readLine(in)) {
      int colon = line.indexOf(':');
      headers.put(
          line.substring(0, colon).strip().toLowerCase(Locale.ROOT),
          line.substring(colon + 1).strip());
    }
    return new Response(status, headers, body(in, status, headers));
  }

  private static byte[] body(InputStream in, int status, Map<String, String> headers)
      throws IOException {
    if (status / 100 == 1 || status == 204 || status == 304) {
      return new byte[0];
    }
    if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
      return dechunk(in);
    }
    String length = headers.get("content-length");
    return length == null ? in.readAllBytes() : in.readNBytes(Integer.parseInt(length));
  }

  private static byte[] dechunk(InputStream in) throws IOException {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    while (true) {
      String sizeLine = readLine(in);
      int semicolon = sizeLine.indexOf(';');
      int size =
          Integer.parseInt(
              (semicolon < 0 ? sizeLine : sizeLine.substring(0, semicolon)).strip(), 16);
      if (size == 0) {
        for (String trailer = readLine(in); !trailer.isEmpty(); trailer = readLine(in)) {
          // trailers carry nothing a test asserts on
        }
        return body.toByteArray();
      }
      body.writeBytes(in.readNBytes(size));
      readLine(in); // the CRLF after the chunk's data
    }
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
