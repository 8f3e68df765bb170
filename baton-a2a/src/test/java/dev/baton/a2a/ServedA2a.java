package dev.baton.a2a;

import dev.baton.Baton;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.Artifact;
import dev.baton.agent.Session;
import dev.baton.agent.SessionStore;
import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.ai.FinishReason;
import dev.baton.ai.InlinePrompt;
import dev.baton.ai.Message;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.Part;
import dev.baton.ai.Role;
import dev.baton.ai.Tool;
import dev.baton.core.Json;
import dev.baton.server.BatonServer;
import dev.baton.server.TestHttp;
import dev.baton.testing.ProgrammableModel;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.eclipse.jetty.server.Handler;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A Baton instance with a programmable model and an agent, {@code researcher}, whose tool {@code
 * approve} interrupts for the client's answer and whose tool {@code write_note} writes a text
 * artifact, served over A2A on a free loopback port: what the server's tests drive.
 */
final class ServedA2a implements AutoCloseable {
  final Baton baton = Baton.builder().experimental().build();
  final ProgrammableModel model = ProgrammableModel.define(baton.registry(), "model");
  private @Nullable BatonServer server;
  private @Nullable A2aHandler handler;
  private int ids;

  ServedA2a() {
    this(InMemorySessionStore.create());
  }

  /** The agent keeps its sessions in the given store. */
  ServedA2a(SessionStore store) {
    Tool<JsonNode, JsonNode> approve =
        baton.defineJsonTool(
            "approve",
            "asks the user to approve a step",
            null,
            null,
            (ctx, in) -> {
              if (!ctx.isResumed()) {
                throw ctx.interrupt(Json.object().put("question", "May I proceed?"));
              }
              return ctx.resumed().orElseThrow();
            });
    Tool<JsonNode, JsonNode> writeNote =
        baton.defineJsonTool(
            "write_note",
            "writes a note as an artifact of the session",
            null,
            null,
            (ctx, in) -> {
              Session.from(ctx.context())
                  .orElseThrow()
                  .addArtifact(
                      Artifact.text(in.path("name").asString(), in.path("text").asString()));
              return Json.nodes().stringNode("saved");
            });
    baton.defineAgent(
        "researcher",
        InlinePrompt.builder()
            .model("model")
            .system("You research.")
            .tools(approve, writeNote)
            .build(),
        AgentOptions.builder()
            .sessionStore(store)
            .description("Finds facts and writes research notes.")
            .build());
  }

  ServedA2a serve() {
    return serve(b -> b);
  }

  ServedA2a serve(UnaryOperator<A2aHandler.Builder> configure) {
    return serve(configure, served -> served);
  }

  /** Serves the handler through {@code wrap}, which may watch its requests. */
  ServedA2a serve(UnaryOperator<A2aHandler.Builder> configure, Function<A2aHandler, Handler> wrap) {
    handler = configure.apply(A2aHandler.builder(baton).agents("researcher")).build();
    server = BatonServer.start("127.0.0.1", 0, wrap.apply(handler));
    return this;
  }

  /** The handler serving the agent. */
  A2aHandler handler() {
    if (handler == null) {
      throw new IllegalStateException("not served");
    }
    return handler;
  }

  /** The agent's card, as its well-known URL answers it. */
  JsonNode card() throws Exception {
    URI card = URI.create(url() + "/.well-known/agent-card.json");
    return Json.parse(
        HttpClient.newHttpClient()
            .send(HttpRequest.newBuilder(card).build(), HttpResponse.BodyHandlers.ofString())
            .body());
  }

  /** The agent's base URL, where its JSON-RPC methods answer. */
  URI url() {
    if (server == null) {
      throw new IllegalStateException("not served");
    }
    return server.uri().resolve("/a2a/researcher");
  }

  /** The model's next answer: a call of {@code approve}, which interrupts. */
  void modelAsksForApproval() {
    model.respond(
        ModelResponse.of(
            new Message(
                Role.MODEL,
                List.of(Part.toolRequest("approve", "a1", Json.object().put("step", "publish")))),
            FinishReason.STOP));
  }

  /** A model answer that calls {@code write_note}: the artifact {@code name} holds {@code text}. */
  static ModelResponse writesNote(String name, String text) {
    return ModelResponse.of(
        new Message(
            Role.MODEL,
            List.of(
                Part.toolRequest(
                    "write_note", "w-" + text, Json.object().put("name", name).put("text", text)))),
        FinishReason.STOP);
  }

  /** Calls a JSON-RPC method and returns the whole response. */
  JsonNode call(String method, Object params, String... headers) {
    ObjectNode request = Json.object().put("jsonrpc", "2.0").put("id", ++ids).put("method", method);
    request.set("params", Json.toTree(params));
    return TestHttp.post(url(), request, headers).json();
  }

  /** Calls a JSON-RPC method and returns its result, failing on an error. */
  JsonNode result(String method, Object params, String... headers) {
    JsonNode response = call(method, params, headers);
    if (response.has("error")) {
      throw new AssertionError("the call failed: " + response);
    }
    return response.get("result");
  }

  /** {@code message/send}'s params: a user's text, in a context and a task when given. */
  static ObjectNode send(String text, @Nullable String contextId, @Nullable String taskId) {
    ObjectNode message =
        Json.object().put("kind", "message").put("role", "user").put("messageId", "m-" + text);
    message.putArray("parts").addObject().put("kind", "text").put("text", text);
    if (contextId != null) {
      message.put("contextId", contextId);
    }
    if (taskId != null) {
      message.put("taskId", taskId);
    }
    ObjectNode params = Json.object();
    params.set("message", message);
    return params;
  }

  @Override
  public void close() throws Exception {
    if (server != null) {
      server.close();
    }
    baton.close();
  }
}
