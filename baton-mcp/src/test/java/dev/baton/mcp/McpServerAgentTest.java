package dev.baton.mcp;

import static dev.baton.mcp.McpServerToolsTest.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.Baton;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.ai.InlinePrompt;
import dev.baton.ai.Message;
import dev.baton.ai.ModelResponseChunk;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Cancellation;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.core.StreamCallback;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ProgressNotification;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import org.eclipse.jetty.util.component.Graceful;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class McpServerAgentTest {
  private final ServedMcp served = new ServedMcp();

  @BeforeEach
  void serve() {
    served.baton.defineAgent(
        "researcher",
        InlinePrompt.builder().model("model").system("You research.").build(),
        AgentOptions.builder()
            .sessionStore(InMemorySessionStore.create())
            .description("Researches a question")
            .build());
    served.serve(b -> b.agents("researcher"));
  }

  @AfterEach
  void close() throws Exception {
    served.close();
  }

  @Test
  void anAgentIsAToolThatTakesATaskAndASessionId() {
    Tool tool = served.client().listTools().tools().getFirst();

    assertThat(tool.name()).isEqualTo("researcher");
    assertThat(tool.description()).isEqualTo("Researches a question");
    assertThat(tool.inputSchema()).containsEntry("required", List.of("task"));
    assertThat(McpServerToolsTest.properties(tool.inputSchema()))
        .containsOnlyKeys("task", "sessionId");
    assertThat(McpServerToolsTest.properties(tool.outputSchema()))
        .containsOnlyKeys("text", "sessionId");
  }

  @Test
  void aCallRunsATurnAndASecondCallContinuesItsSession() {
    served.model.respondText("It needs sorted input.").respondText("It needs uniform keys.");
    McpSyncClient client = served.client();

    CallToolResult first = client.callTool(task("What limits binary search?", null));
    String sessionId = (String) structured(first).get("sessionId");
    CallToolResult second = client.callTool(task("And interpolation search?", sessionId));

    assertThat(first.isError()).isFalse();
    assertThat(text(first)).isEqualTo("It needs sorted input.");
    assertThat(sessionId).isNotBlank();
    assertThat(first.meta()).containsEntry("dev.baton/sessionId", sessionId);
    assertThat(text(second)).isEqualTo("It needs uniform keys.");
    assertThat(structured(second)).containsEntry("sessionId", sessionId);
    // The second turn's model saw the first exchange: the session was continued.
    assertThat(served.model.lastRequest().messages().stream().map(Message::text))
        .contains(
            "What limits binary search?", "It needs sorted input.", "And interpolation search?");
  }

  @Test
  void aFailedTurnIsAnErrorResultWithoutInternals() {
    served.model.step().fail(BatonException.internal("the key sk-secret was refused", null));

    CallToolResult result = served.client().callTool(task("Go", null));

    assertThat(result.isError()).isTrue();
    assertThat(text(result)).doesNotContain("sk-secret").isNotBlank();
    assertThat(result.meta()).containsKey("dev.baton/sessionId");
  }

  @Test
  void anEmptyTaskIsAnInvalidArgument() {
    CallToolResult result =
        served
            .client()
            .callTool(CallToolRequest.builder("researcher").arguments(Map.of("task", " ")).build());

    assertThat(result.isError()).isTrue();
    assertThat(text(result)).contains("\"task\" must be a non-empty string");
  }

  @Test
  void aCallWithAProgressTokenGetsANotificationPerChunk() {
    served
        .model
        .step()
        .chunks(ModelResponseChunk.text("It needs "), ModelResponseChunk.text("sorted input."))
        .respondText("It needs sorted input.");
    List<ProgressNotification> progress = new CopyOnWriteArrayList<>();
    McpSyncClient client = served.client(served.transport(), progress::add);

    CallToolResult result =
        client.callTool(
            CallToolRequest.builder("researcher")
                .arguments(Map.of("task", "What limits binary search?"))
                .progressToken("p-1")
                .build());

    assertThat(text(result)).isEqualTo("It needs sorted input.");
    await().until(() -> progress.stream().anyMatch(p -> "sorted input.".equals(p.message())));
    assertThat(progress).allSatisfy(p -> assertThat(p.progressToken()).isEqualTo("p-1"));
    // The SDK's sync client hands each notification to the consumer on a thread of its own, so
    // they may arrive out of order: their progress numbers give the order the server sent them in.
    assertThat(progress.stream().map(ProgressNotification::progress)).doesNotHaveDuplicates();
    assertThat(
            progress.stream()
                .sorted(Comparator.comparingDouble(ProgressNotification::progress))
                .map(ProgressNotification::message))
        .containsSubsequence("It needs ", "sorted input.");
  }

  @Test
  void aClientsCancellationAbortsTheRun() throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    served.model.step().signalOnEntry(entered).blockUntil(new CountDownLatch(1)).respondText("x");
    // The exchange a TypeScript client's AbortSignal makes, written out.
    RawMcpClient raw = new RawMcpClient(served.server().uri().resolve(served.mcp().path()));
    raw.initialize();

    CompletableFuture<String> call =
        raw.send(
            "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":"
                + "{\"name\":\"researcher\",\"arguments\":{\"task\":\"Take your time\"}}}");
    entered.await();
    raw.send(
            "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":"
                + "{\"requestId\":7,\"reason\":\"the user gave up\"}}")
        .get();

    // The model's gate never opens: the turn can only have ended because the call was cancelled.
    assertThat(served.baton.drain(Duration.ofSeconds(20))).isTrue();
    assertThat(call.get()).contains("\"isError\":true");
  }

  @Test
  void aBatonClientsCancellationAbortsTheRunItCalled() throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    served.model.step().signalOnEntry(entered).blockUntil(new CountDownLatch(1)).respondText("x");
    try (Baton caller = Baton.builder().build();
        McpClient remote =
            Mcp.client("remote").http(served.server().uri().resolve(served.mcp().path())).build()) {
      dev.baton.ai.Tool<?, ?> researcher =
          remote.tools().stream()
              .filter(tool -> tool.name().equals("remote/researcher"))
              .findFirst()
              .orElseThrow();
      Cancellation cancellation = Cancellation.create();
      ActionContext context = caller.context().withCancellation(cancellation);
      CompletableFuture<JsonNode> call =
          CompletableFuture.supplyAsync(
              () ->
                  researcher.runJson(
                      context,
                      Json.parse("{\"task\":\"Take your time\"}"),
                      null,
                      StreamCallback.discard()),
              task -> Thread.ofVirtual().start(task));
      entered.await();

      cancellation.cancel();

      // The gate never opens: the remote turn ended because Baton's client told the server.
      assertThat(served.baton.drain(Duration.ofSeconds(20))).isTrue();
      assertThatThrownBy(call::get)
          .hasCauseInstanceOf(BatonException.class)
          .cause()
          .satisfies(e -> assertThat(((BatonException) e).status()).isEqualTo(Status.CANCELLED));
    }
  }

  @Test
  void closingTheServerEndsTheCallsInFlight() throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    served.model.step().signalOnEntry(entered).blockUntil(new CountDownLatch(1)).respondText("x");
    McpSyncClient client = served.client();

    Future<?> unused =
        CompletableFuture.supplyAsync(() -> client.callTool(task("Take your time", null)));
    entered.await();
    served.mcp().close();

    // The turn was cancelled with the call: nothing is left to drain.
    assertThat(served.baton.drain(Duration.ofSeconds(30))).isTrue();
  }

  @Test
  void closingTheHttpServerLetsTheCallsInFlightFinishFirst() throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    served.model.step().signalOnEntry(entered).blockUntil(release).respondText("Finished.");
    McpSyncClient client = served.client();
    Executor threads = task -> Thread.ofVirtual().start(task);
    CompletableFuture<CallToolResult> call =
        CompletableFuture.supplyAsync(() -> client.callTool(task("Take your time", null)), threads);
    entered.await();

    CompletableFuture<Void> closing = CompletableFuture.runAsync(served.server()::close, threads);
    Graceful endpoint = (Graceful) served.mcp().handler();
    await().until(endpoint::isShutdown);
    release.countDown();

    closing.get();
    assertThat(text(call.get())).isEqualTo("Finished.");
  }

  private static CallToolRequest task(String task, String sessionId) {
    Map<String, Object> arguments = new HashMap<>();
    arguments.put("task", task);
    if (sessionId != null) {
      arguments.put("sessionId", sessionId);
    }
    return CallToolRequest.builder("researcher").arguments(arguments).build();
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> structured(CallToolResult result) {
    return (Map<String, Object>) result.structuredContent();
  }
}
