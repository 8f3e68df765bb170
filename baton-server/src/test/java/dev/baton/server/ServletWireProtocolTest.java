package dev.baton.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Baton;
import dev.baton.ai.Message;
import dev.baton.core.ActionContext;
import dev.baton.core.Json;
import dev.baton.server.internal.protocol.WireProtocol;
import dev.baton.server.internal.servlet.RequestAuth;
import dev.baton.server.internal.servlet.WireServlet;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The wire-protocol contract on a servlet container: {@link WireServlet} in Jetty's ee10 servlet
 * context, mapped at {@code /api/*}, and what only a servlet binding does: the paths under its
 * mapping that no route takes, and the auth context it takes from the container's request.
 */
class ServletWireProtocolTest extends WireProtocolContract {
  private @Nullable Server server;
  private @Nullable WireProtocol protocol;
  // Set by a test thread, read on the container's.
  private volatile RequestAuth requestAuth = RequestAuth.NONE;

  @Override
  protected URI serve(Baton baton, List<ContextProvider> providers) throws Exception {
    WireProtocol.Builder builder =
        WireProtocol.builder(baton)
            .allAgents()
            .allFlows()
            .maxRequestBytes(MAX_REQUEST_BYTES)
            .keepAliveInterval(KEEP_ALIVE_INTERVAL);
    providers.forEach(builder::contextProvider);
    WireProtocol served = builder.build();
    protocol = served;
    Server jetty = new Server();
    HttpConfiguration config = new HttpConfiguration();
    // Credentials are read from headers: see BatonHandler's "In a server of your own".
    config.setHeaderCacheCaseSensitive(true);
    ServerConnector connector = new ServerConnector(jetty, new HttpConnectionFactory(config));
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    jetty.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler("/");
    // The auth is read per request, so a test can set it after the fixture serves.
    ServletHolder holder =
        new ServletHolder(new WireServlet(served, request -> requestAuth.of(request)));
    holder.setAsyncSupported(true);
    context.addServlet(holder, "/api/*");
    jetty.setHandler(context);
    served.start();
    jetty.start();
    server = jetty;
    return URI.create("http://127.0.0.1:" + connector.getLocalPort() + "/api/");
  }

  @Override
  protected void stopServing() throws Exception {
    if (protocol != null) {
      protocol.shutdown().get(30, TimeUnit.SECONDS);
    }
    if (server != null) {
      server.stop();
    }
    if (protocol != null) {
      protocol.stop();
    }
  }

  @Test
  void aPathUnderTheMappingThatNoRouteTakesAnswersGenkitsNotFound() {
    for (String path : List.of("/nothing", "/agents", "/agents/chat/history", "")) {
      TestHttp.Answer answer =
          TestHttp.post(url(path), TestHttp.envelope("x"), "Authorization", "Bearer t-alice");
      assertThat(answer.status()).as(path).isEqualTo(404);
      assertThat(answer.contentType()).startsWith("application/json");
      assertThat(answer.json().get("status").stringValue()).isEqualTo("NOT_FOUND");
    }
  }

  @Test
  void theContainersPrincipalIsTheRequestsAndAProviderNamingAnotherIsRefused() {
    requestAuth =
        request -> {
          String user = request.getHeader("X-Test-User");
          return user == null ? null : Map.of(ActionContext.PRINCIPAL, user, "tenant", "acme");
        };
    model().respondText("hi");
    TestHttp.Answer turn =
        TestHttp.post(
            url("/agents/chat"),
            TestHttp.envelope(Map.of("message", Message.user("hi"))),
            "Authorization",
            "Bearer t-alice",
            "X-Test-User",
            "alice");
    assertThat(turn.status()).as(turn.body()).isEqualTo(200);
    JsonNode id =
        TestHttp.envelope(Map.of("snapshotId", turn.json().at("/result/snapshotId").stringValue()));

    TestHttp.Answer twoCallers =
        TestHttp.post(
            url("/agents/chat/getSnapshot"),
            id,
            "Authorization",
            "Bearer t-bob",
            "X-Test-User",
            "alice");
    assertThat(twoCallers.status()).as(twoCallers.body()).isEqualTo(403);
    assertThat(twoCallers.json().get("status").stringValue()).isEqualTo("PERMISSION_DENIED");
    assertThat(
            TestHttp.post(url("/agents/chat/getSnapshot"), id, "Authorization", "Bearer t-alice")
                .status())
        .as("the session belongs to the principal both agreed on")
        .isEqualTo(200);
    assertThat(model().calls()).isEqualTo(1);
  }

  @Test
  void anEmptyPrincipalFromTheContainerIsRefusedBeforeAnythingRuns() {
    requestAuth = request -> Map.of(ActionContext.PRINCIPAL, "");

    TestHttp.Answer answer =
        TestHttp.post(
            url("/agents/chat"),
            TestHttp.envelope(Map.of("message", Message.user("hi"))),
            "Authorization",
            "Bearer t-alice");

    assertThat(answer.status()).as(answer.body()).isEqualTo(500);
    assertThat(answer.json().get("status").stringValue()).isEqualTo("INTERNAL");
    assertThat(answer.body()).doesNotContain("misconfigured");
    assertThat(model().calls()).as("nothing ran").isZero();
  }

  @Test
  void aRequestBeforeTheProtocolStartsAnswersUnavailable() {
    WireProtocol idle = java.util.Objects.requireNonNull(protocol);
    idle.stop();
    TestHttp.Answer answer =
        TestHttp.post(
            url("/flows/shout"), TestHttp.envelope("x"), "Authorization", "Bearer t-alice");
    assertThat(answer.status()).isEqualTo(503);
    assertThat(Json.parse(answer.body()).get("status").stringValue()).isEqualTo("UNAVAILABLE");
    idle.start();
    assertThat(
            TestHttp.post(
                    url("/flows/shout"), TestHttp.envelope("x"), "Authorization", "Bearer t-alice")
                .status())
        .isEqualTo(200);
  }
}
