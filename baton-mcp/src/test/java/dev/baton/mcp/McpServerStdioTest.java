package dev.baton.mcp;

import static dev.baton.mcp.McpServerToolsTest.call;
import static dev.baton.mcp.McpServerToolsTest.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Baton;
import dev.baton.core.BatonException;
import dev.baton.core.Status;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class McpServerStdioTest {

  @Test
  void aClientThatStartsTheServerAsAProcessListsAndCallsItsTools() {
    ServerParameters process =
        ServerParameters.builder(Path.of(System.getProperty("java.home"), "bin", "java").toString())
            .args("-cp", System.getProperty("java.class.path"), McpServerStdioMain.class.getName())
            .build();
    try (McpSyncClient client =
        McpClient.sync(new StdioClientTransport(process, ServedMcp.MAPPER))
            .requestTimeout(Duration.ofSeconds(30))
            .initializationTimeout(Duration.ofSeconds(50))
            .build()) {
      client.initialize();

      assertThat(client.listTools().tools()).extracting(Tool::name).containsExactly("shout");
      assertThat(text(client.callTool(call("shout", Map.of("input", "hi"))))).isEqualTo("HI");
    }
  }

  @Test
  void servingReturnsWhenTheInputEnds() {
    try (Baton baton = Baton.builder().build();
        McpServer mcp = Mcp.server(baton).build()) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();

      mcp.serveStdio(new ByteArrayInputStream(new byte[0]), out);

      assertThat(out.size()).isZero();
    }
  }

  @Test
  void closingTheServerEndsServingAndRefusesToServeAgain() throws Exception {
    try (Baton baton = Baton.builder().build();
        PipedOutputStream client = new PipedOutputStream();
        PipedInputStream pipe = new PipedInputStream(client)) {
      CountDownLatch reading = new CountDownLatch(1);
      InputStream in =
          new FilterInputStream(pipe) {
            @Override
            public int read(byte[] buffer, int offset, int length) throws IOException {
              reading.countDown();
              return super.read(buffer, offset, length);
            }
          };
      McpServer mcp = Mcp.server(baton).build();
      CompletableFuture<Void> serving =
          CompletableFuture.runAsync(() -> mcp.serveStdio(in, new ByteArrayOutputStream()));
      reading.await();

      mcp.close();

      serving.get();
      assertThatThrownBy(mcp::serveStdio)
          .isInstanceOfSatisfying(
              BatonException.class,
              e -> assertThat(e.status()).isEqualTo(Status.FAILED_PRECONDITION));
      assertThatThrownBy(mcp::handler).isInstanceOf(BatonException.class);
    }
  }

  @Test
  void theEndOfTheInputCancelsTheCallsStillRunning() throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch cancelled = new CountDownLatch(1);
    try (Baton baton = Baton.builder().build();
        PipedOutputStream client = new PipedOutputStream();
        PipedInputStream in = new PipedInputStream(client)) {
      baton.defineFlow(
          "wait",
          String.class,
          String.class,
          (ctx, input) -> {
            try (var unused = ctx.cancellation().onCancel(cancelled::countDown)) {
              entered.countDown();
              cancelled.await();
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
            return "cancelled: " + ctx.cancellation().isCancelled();
          });
      McpServer mcp = Mcp.server(baton).flows("wait").build();
      CompletableFuture<Void> serving =
          CompletableFuture.runAsync(
              () -> mcp.serveStdio(in, new ByteArrayOutputStream()),
              task -> Thread.ofVirtual().start(task));
      // What a client writes: the handshake, then a call it will not wait for.
      client.write(
          ("""
              {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":\
              "2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}
              {"jsonrpc":"2.0","method":"notifications/initialized"}
              {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"wait",\
              "arguments":{"input":"x"}}}
              """)
              .getBytes(StandardCharsets.UTF_8));
      client.flush();
      entered.await();

      client.close();

      serving.get();
      // Cancelled before serving returned.
      assertThat(cancelled.getCount()).isZero();
      mcp.close();
    }
  }
}
