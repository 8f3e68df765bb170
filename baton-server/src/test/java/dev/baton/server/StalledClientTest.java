package dev.baton.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Baton;
import dev.baton.core.BatonException;
import dev.baton.core.Status;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.Test;

/**
 * A streaming client that stops reading does not hold its run: once the socket buffers are full,
 * the run's next chunk blocks in the write, Jetty fails that write when the connector's idle
 * timeout passes without progress, and the run is cancelled as for a client that went away (before
 * a detach, a disconnect cancels the work, as in Genkit).
 */
class StalledClientTest {
  @Test
  void aClientThatStopsReadingIsDroppedAfterTheIdleTimeoutAndItsRunCancelled() throws Exception {
    Baton baton = Baton.builder().build();
    String chunk = "x".repeat(64 * 1024);
    AtomicReference<Throwable> ended = new AtomicReference<>();
    CountDownLatch over = new CountDownLatch(1);
    baton.defineStreamingFlow(
        "firehose",
        String.class,
        String.class,
        String.class,
        (ctx, in, stream) -> {
          try {
            while (true) {
              stream.onChunk(chunk);
            }
          } catch (RuntimeException e) {
            ended.set(e);
            throw e;
          } finally {
            over.countDown();
          }
        });
    Server server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    connector.setIdleTimeout(1000);
    server.addConnector(connector);
    server.setHandler(BatonHandler.builder(baton).allFlows().build());
    server.start();
    try (Socket client = new Socket()) {
      client.setReceiveBufferSize(4096);
      client.connect(new InetSocketAddress("127.0.0.1", connector.getLocalPort()));
      byte[] body = "{\"data\": \"go\"}".getBytes(StandardCharsets.UTF_8);
      OutputStream out = client.getOutputStream();
      out.write(
          ("POST /flows/firehose?stream=true HTTP/1.1\r\nHost: test\r\n"
                  + "Content-Type: application/json\r\nContent-Length: "
                  + body.length
                  + "\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      out.write(body);
      out.flush();
      // The client reads nothing from here on.

      assertThat(over.await(60, TimeUnit.SECONDS)).as("the run ended").isTrue();
    } finally {
      server.stop();
    }
    assertThat(ended.get())
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.CANCELLED));
  }
}
