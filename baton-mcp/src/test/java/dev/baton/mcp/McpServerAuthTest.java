package dev.baton.mcp;

import static dev.baton.mcp.McpServerToolsTest.call;
import static dev.baton.mcp.McpServerToolsTest.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.core.ActionContext;
import dev.baton.server.ContextProviders;
import java.net.URI;
import java.net.http.HttpResponse;
import java.util.Map;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class McpServerAuthTest {
  record Nothing() {}

  private final ServedMcp served = new ServedMcp();

  @BeforeEach
  void serve() {
    served.baton.defineTool(
        "whoami",
        "Who is calling",
        Nothing.class,
        String.class,
        (ctx, in) ->
            ctx.context().principal().orElse("nobody") + " as " + ctx.context().auth().get("role"));
    served.serve(
        b ->
            b.tools("whoami")
                .contextProvider(
                    ContextProviders.bearerToken(
                        token ->
                            switch (token) {
                              case "alice-token" ->
                                  Map.of(ActionContext.PRINCIPAL, "alice", "role", "admin");
                              case "bob-token" ->
                                  Map.of(ActionContext.PRINCIPAL, "bob", "role", "user");
                              default -> null;
                            })));
  }

  @AfterEach
  void close() throws Exception {
    served.close();
  }

  @Test
  void theCallersPrincipalAndAuthContextReachTheTool() {
    var client = served.client("Authorization", "Bearer alice-token");

    assertThat(text(client.callTool(call("whoami", Map.of())))).isEqualTo("alice as admin");
  }

  @Test
  void aSessionAnswersOnlyThePrincipalThatOpenedIt() throws Exception {
    URI endpoint = served.server().uri().resolve("/mcp");
    RawMcpClient alice = new RawMcpClient(endpoint, "Authorization", "Bearer alice-token");
    alice.initialize();
    String whoami =
        "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\","
            + "\"params\":{\"name\":\"whoami\",\"arguments\":{}}}";

    HttpResponse<String> asBob =
        new RawMcpClient(endpoint, "Authorization", "Bearer bob-token")
            .inSession(alice.session())
            .post(whoami);
    HttpResponse<String> asAlice = alice.post(whoami);

    assertThat(asBob.statusCode()).isEqualTo(404);
    assertThat(asBob.body()).contains("\"status\":\"NOT_FOUND\"").doesNotContain("alice");
    assertThat(asAlice.statusCode()).isEqualTo(200);
    assertThat(asAlice.body()).contains("alice as admin");
  }

  @Test
  void anUnauthenticatedRequestIsRefusedBeforeAnyMcpProcessing() throws Exception {
    HttpResponse<String> none =
        new RawMcpClient(served.server().uri().resolve("/mcp")).initialize();
    HttpResponse<String> wrong =
        new RawMcpClient(
                served.server().uri().resolve("/mcp"), "Authorization", "Bearer mallory-token")
            .initialize();

    assertThat(none.statusCode()).isEqualTo(401);
    assertThat(none.body()).contains("\"status\":\"UNAUTHENTICATED\"").contains("bearer token");
    assertThat(none.headers().firstValue("Mcp-Session-Id")).isEmpty();
    assertThat(wrong.statusCode()).isEqualTo(401);
    assertThat(wrong.body()).contains("the bearer token is not valid");
    assertThatThrownBy(() -> served.client("Authorization", "Bearer mallory-token")).isNotNull();
  }

  @Test
  void theEndpointRefusesAServerWhoseHeaderCacheIgnoresCase() throws Exception {
    McpServer mcp =
        Mcp.server(served.baton)
            .tools("whoami")
            .contextProvider(ContextProviders.apiKey("k"))
            .build();
    // Jetty's default configuration matches cached header values without regard to case.
    Server server = new Server();
    server.addConnector(new ServerConnector(server, new HttpConnectionFactory()));
    server.setHandler(mcp.handler());
    try (mcp) {
      assertThatThrownBy(server::start)
          .hasStackTraceContaining("setHeaderCacheCaseSensitive(true)");
    } finally {
      server.stop();
    }
  }
}
