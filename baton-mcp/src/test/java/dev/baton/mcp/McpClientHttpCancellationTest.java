package dev.baton.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.Baton;
import dev.baton.ai.Tool;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Cancellation;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.core.StreamCallback;
import dev.baton.server.NodeFixture;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;
import tools.jackson.databind.JsonNode;

/**
 * A tool call over streamable HTTP that the caller stops waiting for, timed out or cancelled, is
 * cancelled on the TypeScript SDK's stateful server too: its session routes the notification.
 */
@Isolated("its one-second timeout must not wait on other tests for the CPU")
class McpClientHttpCancellationTest {
  private static NodeFixture.Server server;
  private final Baton baton = Baton.builder().build();

  @BeforeAll
  static void start() {
    NodeFixture.require();
    server = NodeFixture.server("client-http-stateful-server.js");
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private static McpClient.Builder client(String name) {
    return Mcp.client(name).http(URI.create("http://127.0.0.1:" + server.port() + "/mcp"));
  }

  private JsonNode run(McpClient client, String tool, ActionContext context) {
    Tool<?, ?> found =
        client.tools().stream()
            .filter(t -> t.name().equals(client.name() + "/" + tool))
            .findFirst()
            .orElseThrow();
    return found.runJson(context, Json.object(), null, StreamCallback.discard()).path("output");
  }

  private String call(McpClient client, String tool) {
    return run(client, tool, baton.context()).asString();
  }

  @Test
  void aTimedOutCallIsDeadlineExceededAndTheServerIsToldToStop() {
    try (McpClient client = client("slow-http").timeout(Duration.ofSeconds(1)).build()) {
      int before = Json.parse(call(client, "cancellations")).size();

      assertThatThrownBy(() -> run(client, "sleep", baton.context()))
          .isInstanceOfSatisfying(
              BatonException.class,
              e -> assertThat(e.status()).isEqualTo(Status.DEADLINE_EXCEEDED));

      await()
          .atMost(Duration.ofSeconds(20))
          .untilAsserted(
              () ->
                  assertThat(Json.parse(call(client, "cancellations")))
                      .hasSize(before + 1)
                      .last()
                      .satisfies(
                          record ->
                              assertThat(record.path("reason").asString()).isEqualTo("timed out")));
    }
  }

  @Test
  void anAbortedCallIsAbortedAndTheServerIsToldToStop() throws Exception {
    try (McpClient client = client("cancel-http").build()) {
      int before = Json.parse(call(client, "cancellations")).size();
      int begun = Integer.parseInt(call(client, "sleeps_begun"));
      Cancellation cancellation = Cancellation.create();
      ActionContext context = baton.context().withCancellation(cancellation);
      CompletableFuture<JsonNode> sleeping =
          CompletableFuture.supplyAsync(() -> run(client, "sleep", context));
      await()
          .atMost(Duration.ofSeconds(20))
          .until(() -> Integer.parseInt(call(client, "sleeps_begun")) > begun);

      cancellation.cancel(BatonException.of(Status.ABORTED, "the task was aborted"));

      assertThatThrownBy(() -> sleeping.get(30, TimeUnit.SECONDS))
          .isInstanceOf(ExecutionException.class)
          .cause()
          .isInstanceOfSatisfying(
              BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.ABORTED));
      await()
          .atMost(Duration.ofSeconds(20))
          .untilAsserted(
              () ->
                  assertThat(Json.parse(call(client, "cancellations")))
                      .hasSize(before + 1)
                      .last()
                      .satisfies(
                          record ->
                              assertThat(record.path("reason").asString()).isEqualTo("cancelled")));
    }
  }
}
