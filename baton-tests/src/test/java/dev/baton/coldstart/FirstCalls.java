package dev.baton.coldstart;

import dev.baton.Baton;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.ai.FinishReason;
import dev.baton.ai.GenerateOptions;
import dev.baton.ai.InlinePrompt;
import dev.baton.ai.Message;
import dev.baton.ai.ModelInfo;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.Part;
import dev.baton.ai.Role;
import dev.baton.ai.Tool;
import dev.baton.core.Json;
import java.util.List;

/**
 * First calls that {@link ColdStartTest} runs in a class loader of its own, so that what they load
 * is not hidden by what other tests loaded before. Tracing is off in each.
 */
public final class FirstCalls {
  private FirstCalls() {}

  /** One turn of a server-managed agent without tools; returns the agent. */
  public static Agent oneShotTurn() {
    Baton baton = Baton.builder().experimental().build();
    ModelResponse answer = ModelResponse.of(Message.model("Hello."), FinishReason.STOP);
    baton.defineModel("chat-model", ModelInfo.full("chat-model"), (ctx, request, s) -> answer);
    Agent agent =
        baton.defineAgent(
            "chat",
            InlinePrompt.builder().model("chat-model").system("Be brief.").build(),
            AgentOptions.builder().sessionStore(InMemorySessionStore.create()).build());
    if (agent.runText("Hi!").isFailed()) {
      throw new IllegalStateException("the turn failed");
    }
    return agent;
  }

  /** A generate call with one round of a tool that declares no schema. */
  public static void toolWithoutSchema() {
    Baton baton = Baton.builder().experimental().build();
    ModelResponse call =
        ModelResponse.of(
            new Message(
                Role.MODEL,
                List.of(Part.toolRequest("echo", "call-1", Json.object().put("word", "hi")))),
            FinishReason.STOP);
    ModelResponse answer = ModelResponse.of(Message.model("Done."), FinishReason.STOP);
    baton.defineModel(
        "tool-model",
        ModelInfo.full("tool-model"),
        (ctx, request, s) ->
            request.messages().get(request.messages().size() - 1).role() == Role.TOOL
                ? answer
                : call);
    Tool<?, ?> echo = Tool.createJson("echo", "Echoes its input", null, null, (ctx, in) -> in);
    String text =
        baton
            .generate(
                GenerateOptions.builder().model("tool-model").prompt("Go").tools(echo).build())
            .text();
    if (!text.equals("Done.")) {
      throw new IllegalStateException("the tool round ended with " + text);
    }
  }
}
