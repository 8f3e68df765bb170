package dev.baton;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentOptions;
import dev.baton.ai.FinishReason;
import dev.baton.ai.InlinePrompt;
import dev.baton.ai.Message;
import dev.baton.ai.ModelInfo;
import dev.baton.ai.ModelRequest;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.Part;
import dev.baton.ai.Role;
import dev.baton.ai.Tool;
import dev.baton.core.ActionContext;
import dev.baton.core.Json;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import tools.jackson.databind.JsonNode;

/**
 * An agent whose every turn makes progress first (a model call asking for the {@code step} tool,
 * and the tool's answer), then waits in its second model call until {@link #release} opens or the
 * run is stopped: a run that a close has to wait for, or abort, with progress to keep.
 */
final class SlowAgent {
  /** Opened by the test: waiting model calls answer "done". */
  final CountDownLatch release = new CountDownLatch(1);

  /** A permit per model call that has started waiting. */
  final Semaphore waiting = new Semaphore(0);

  final Agent agent;

  /** The instance the agent belongs to, whose root context runs its turns. */
  final Baton baton;

  SlowAgent(Baton baton, String name, AgentOptions options) {
    this.baton = baton;
    Tool<JsonNode, JsonNode> step =
        baton.defineJsonTool(
            name + "-step",
            "Takes a step.",
            null,
            null,
            (ctx, in) -> Json.nodes().stringNode("ok"));
    baton.defineModel(
        name + "-model",
        new ModelInfo(name + "-model", ModelInfo.Supports.ALL, null),
        (ctx, request, stream) -> respond(ctx, request, step.name()));
    this.agent =
        baton.defineAgent(
            name, InlinePrompt.builder().model(name + "-model").tools(step).build(), options);
  }

  private ModelResponse respond(ActionContext ctx, ModelRequest request, String tool) {
    if (request.messages().getLast().role() == Role.USER) {
      return ModelResponse.of(
          new Message(
              Role.MODEL, List.of(Part.toolRequest(tool, "s1", Json.nodes().stringNode("go")))),
          FinishReason.STOP);
    }
    waiting.release();
    CountDownLatch either = new CountDownLatch(1);
    try (var onCancel = ctx.cancellation().onCancel(either::countDown)) {
      Thread.ofVirtual().start(() -> awaitRelease(either));
      either.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    ctx.cancellation().throwIfCancelled();
    return ModelResponse.of(Message.model("done"), FinishReason.STOP);
  }

  private void awaitRelease(CountDownLatch either) {
    try {
      release.await();
      either.countDown();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
