package dev.baton.mcp;

import dev.baton.Baton;
import dev.baton.core.Json;
import dev.baton.server.BatonServer;
import dev.baton.testing.ProgrammableModel;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.json.jackson3.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * A Baton instance with a programmable model, whose MCP server runs over streamable HTTP on a free
 * loopback port once {@link #serve}d, and the MCP Java SDK's clients of it: what the server's tests
 * drive.
 */
final class ServedMcp implements AutoCloseable {
  static final JacksonMcpJsonMapper MAPPER = new JacksonMcpJsonMapper(Json.mapper());

  final Baton baton = Baton.builder().experimental().build();
  final ProgrammableModel model = ProgrammableModel.define(baton.registry(), "model");
  private final List<AutoCloseable> resources = new ArrayList<>();
  private @Nullable BatonServer server;
  private @Nullable McpServer mcp;

  /** Serves over HTTP what {@code configure} chooses. */
  ServedMcp serve(UnaryOperator<McpServer.Builder> configure) {
    McpServer built = configure.apply(Mcp.server(baton)).build();
    mcp = built;
    server = BatonServer.start("127.0.0.1", 0, built.handler());
    return this;
  }

  McpServer mcp() {
    if (mcp == null) {
      throw new IllegalStateException("not served");
    }
    return mcp;
  }

  BatonServer server() {
    if (server == null) {
      throw new IllegalStateException("not served");
    }
    return server;
  }

  /** A transport to the server, with the headers given as name, value pairs. */
  HttpClientStreamableHttpTransport transport(String... headers) {
    HttpRequest.Builder request = HttpRequest.newBuilder();
    for (int i = 0; i < headers.length; i += 2) {
      request.header(headers[i], headers[i + 1]);
    }
    return HttpClientStreamableHttpTransport.builder(server().uri().toString())
        .endpoint(mcp().path())
        .jsonMapper(MAPPER)
        .requestBuilder(request)
        .build();
  }

  /** An initialized client. */
  McpSyncClient client(String... headers) {
    return client(transport(headers), progress -> {});
  }

  /** An initialized client over {@code transport} that hands progress notifications on. */
  McpSyncClient client(
      McpClientTransport transport, Consumer<McpSchema.ProgressNotification> progress) {
    McpSyncClient client =
        McpClient.sync(transport)
            .requestTimeout(Duration.ofSeconds(30))
            .progressConsumer(progress)
            .build();
    resources.add(client);
    client.initialize();
    return client;
  }

  @Override
  public void close() throws Exception {
    for (AutoCloseable resource : resources.reversed()) {
      resource.close();
    }
    if (server != null) {
      server.close();
    }
    if (mcp != null) {
      mcp.close();
    }
    baton.close();
  }
}
