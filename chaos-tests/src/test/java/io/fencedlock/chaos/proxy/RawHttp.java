package io.fencedlock.chaos.proxy;

import com.google.gson.JsonElement;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/**
 * Raw HTTP for what toxiproxy-java does not expose: error bodies, /populate, and PATCH (which
 * HttpURLConnection cannot send, so it goes over a plain socket). Thread-safe: stateless.
 */
final class RawHttp {

    /** A status code and the body text. */
    record Response(int status, String body) {
        JsonElement json() {
            return JsonParser.parseString(body);
        }
    }

    private final URI base;

    RawHttp(String baseUrl) {
        this.base = URI.create(baseUrl);
    }

    Response get(String path) {
        return send("GET", path, null);
    }

    Response post(String path, String body) {
        return send("POST", path, body);
    }

    Response delete(String path) {
        return send("DELETE", path, null);
    }

    Response patch(String path, String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        return overSocket("PATCH " + path + " HTTP/1.1\r\nHost: " + base.getAuthority()
                + "\r\nContent-Type: application/json\r\nContent-Length: " + bytes.length
                + "\r\nConnection: close\r\n\r\n" + body);
    }

    /** Sends {@code request} verbatim on a fresh connection and reads the response to EOF. */
    Response overSocket(String request) {
        try (Socket socket = new Socket(base.getHost(), base.getPort())) {
            socket.setSoTimeout((int) Timing.socketTimeout().toMillis());
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.UTF_8));
            out.flush();
            String response = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int status = Integer.parseInt(response.substring(9, 12));
            int bodyStart = response.indexOf("\r\n\r\n");
            return new Response(status, bodyStart < 0 ? "" : response.substring(bodyStart + 4));
        } catch (IOException e) {
            throw new UncheckedIOException(request.lines().findFirst().orElse(request) + " failed", e);
        }
    }

    private Response send(String method, String path, String body) {
        try {
            HttpURLConnection connection = (HttpURLConnection) base.resolve(path).toURL().openConnection();
            connection.setRequestMethod(method);
            connection.setConnectTimeout((int) Timing.socketTimeout().toMillis());
            connection.setReadTimeout((int) Timing.socketTimeout().toMillis());
            if (body != null) {
                connection.setDoOutput(true);
                try (OutputStream out = connection.getOutputStream()) {
                    out.write(body.getBytes(StandardCharsets.UTF_8));
                }
            }
            int status = connection.getResponseCode();
            InputStream in = status >= 400 ? connection.getErrorStream() : connection.getInputStream();
            String text = in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return new Response(status, text);
        } catch (IOException e) {
            throw new UncheckedIOException(method + " " + path + " failed", e);
        }
    }
}
