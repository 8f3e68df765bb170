package dev.baton.mcp;

import dev.baton.Baton;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.ai.FinishReason;
import dev.baton.ai.InlinePrompt;
import dev.baton.ai.Message;
import dev.baton.ai.ModelRequest;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.Role;
import dev.baton.testing.ProgrammableModel;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The Baton application the TypeScript client talks to, in this JVM (over HTTP) or in a child one
 * (over stdio, through {@link InteropStdioMain}): the tools {@code add} and {@code whoami} (which
 * answers the caller's auth context), the flows {@code shout} (upper-cases {@code text}) and {@code
 * whisper} (lower-cases its string input), the agent {@code researcher} on a programmable model
 * that answers {@code "researched: <task>"}, and the prompt {@code greeting}.
 */
final class InteropApp {
  private InteropApp() {}

  record Numbers(double a, double b) {}

  record Sum(double sum) {}

  record Nothing() {}

  record Words(String text) {}

  static Baton build() {
    Baton baton = Baton.builder().experimental().build();
    ProgrammableModel.define(baton.registry(), "model")
        .fallback(
            request ->
                ModelResponse.of(
                    Message.model(
                        "researched: %s (turn %d)"
                            .formatted(ProgrammableModel.lastUserText(request), turn(request))),
                    FinishReason.STOP));
    baton.defineTool(
        "add",
        "Adds two numbers.",
        Numbers.class,
        Sum.class,
        (ctx, in) -> new Sum(in.a() + in.b()));
    baton.defineTool(
        "whoami",
        "Answers the caller's auth context.",
        Nothing.class,
        Map.class,
        (ctx, in) -> new TreeMap<>(ctx.context().auth()));
    baton.defineFlow(
        "shout", Words.class, String.class, (ctx, in) -> in.text().toUpperCase(Locale.ROOT));
    baton.defineFlow("whisper", String.class, String.class, (ctx, s) -> s.toLowerCase(Locale.ROOT));
    baton.defineAgent(
        "researcher", InlinePrompt.builder().model("model").system("Research the task.").build());
    baton.defineAgent(
        "chat",
        InlinePrompt.builder().model("model").system("Chat.").build(),
        AgentOptions.builder().sessionStore(InMemorySessionStore.create()).build());
    baton.definePrompt(
        "greeting", InlinePrompt.builder().model("model").prompt("Hello, {{name}}!").build());
    return baton;
  }

  /** The turn a model request is for: how many user messages it holds. */
  private static long turn(ModelRequest request) {
    return request.messages().stream().filter(message -> message.role() == Role.USER).count();
  }

  /** An MCP server for the application: everything it defines. */
  static McpServer.Builder server(Baton baton) {
    return Mcp.server(baton)
        .tools("add", "whoami")
        .flows("shout", "whisper")
        .agents("researcher", "chat")
        .prompts("greeting");
  }
}
