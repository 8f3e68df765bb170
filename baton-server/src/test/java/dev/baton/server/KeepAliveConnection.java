package dev.baton.server;

import dev.baton.server.TestHttp.Answer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * One HTTP/1.1 connection that sends requests one after another and reads each answer, as a proxy
 * or a gateway forwards several users' requests over one kept-alive connection. Only what the
 * server's answers need: bodies sized by {@code Content-Length} or sent in chunks.
 */
final class KeepAliveConnection implements AutoCloseable {
  private static final int TIMEOUT_MILLIS = 30_000;

  private final Socket socket;
  private final InputStream in;
  private final OutputStream out;

  KeepAliveConnection(URI server) throws IOException {
    socket = new Socket(server.getHost(), server.getPort());
    socket.setSoTimeout(TIMEOUT_MILLIS);
    in = socket.getInputStream();
    out = socket.getOutputStream();
  }

  /** Posts a JSON body to {@code path} with the given header lines, and reads the answer. */
  Answer post(String path, String body, String... headerLines) throws IOException {
    byte[] content = body.getBytes(StandardCharsets.UTF_8);
    StringBuilder request =
        new StringBuilder("POST ")
            .append(path)
            .append(" HTTP/1.1\r\nHost: ")
            .append(socket.getInetAddress().getHostAddress())
            .append("\r\nContent-Type: application/json\r\nContent-Length: ")
            .append(content.length)
            .append("\r\n");
    for (String line : headerLines) {
      request.append(line).append("\r\n");
    }
    out.write(request.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1));
    out.write(content);
    out.flush();
    return read();
  }

  private Answer read() throws IOException {
    String statusLine = line();
    int status = Integer.parseInt(statusLine.split(" ")[1]);
    String contentType = "";
    int length = -1;
    boolean chunked = false;
    for (String header = line(); !header.isEmpty(); header = line()) {
      int colon = header.indexOf(':');
      String name = header.substring(0, colon).trim().toLowerCase(Locale.ROOT);
      String value = header.substring(colon + 1).trim();
      switch (name) {
        case "content-type" -> contentType = value;
        case "content-length" -> length = Integer.parseInt(value);
        case "transfer-encoding" -> chunked = value.equalsIgnoreCase("chunked");
        default -> {}
      }
    }
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    if (chunked) {
      for (int size = Integer.parseInt(line(), 16); size > 0; size = Integer.parseInt(line(), 16)) {
        body.write(in.readNBytes(size));
        line(); // the CRLF after the chunk
      }
      line(); // the CRLF after the last chunk
    } else if (length > 0) {
      body.write(in.readNBytes(length));
    }
    return new Answer(status, contentType, body.toString(StandardCharsets.UTF_8));
  }

  /** A line up to CRLF, without it. */
  private String line() throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    for (int b = in.read(); b != '\n'; b = in.read()) {
      if (b < 0) {
        throw new IOException("the server closed the connection");
      }
      if (b != '\r') {
        line.write(b);
      }
    }
    return line.toString(StandardCharsets.ISO_8859_1);
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
