package dev.baton.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.springframework.boot.tomcat.TomcatWebServer;

/** The wire-protocol contract, served by the auto-configuration on Spring Boot's Tomcat. */
class WireProtocolOnTomcatTest extends SpringBootWireProtocolContract {
  @Test
  void aBodyOverTheLimitAnswers413AndClosesTheConnection() throws Exception {
    URI uri = url("/agents/chat");
    try (Socket socket = new Socket(uri.getHost(), uri.getPort())) {
      socket.setSoTimeout(30_000);
      // Declared over the limit and never sent: the answer cannot wait for the body.
      String head =
          "POST "
              + uri.getRawPath()
              + " HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n"
              + "Authorization: Bearer t-alice\r\nContent-Length: "
              + (MAX_REQUEST_BYTES + 1)
              + "\r\n\r\n";
      socket.getOutputStream().write(head.getBytes(StandardCharsets.US_ASCII));
      socket.getOutputStream().flush();
      String answer =
          new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);

      assertThat(answer).startsWith("HTTP/1.1 413").containsIgnoringCase("\r\nConnection: close");
    }
  }

  @Test
  void theApplicationRunsOnTomcat() {
    assertThat(app.webServer()).isInstanceOf(TomcatWebServer.class);
  }
}
