package dev.baton.internal.agent;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentInput;
import dev.baton.agent.AgentMetadata;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.AgentStreamChunk;
import dev.baton.agent.SessionSnapshot;
import dev.baton.core.Action;
import dev.baton.core.ActionContext;
import dev.baton.core.ActionDescriptor;
import dev.baton.core.ActionType;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.StreamCallback;
import dev.baton.internal.agent.CompanionRequests.AbortRequest;
import dev.baton.internal.agent.CompanionRequests.AbortResponse;
import dev.baton.internal.agent.CompanionRequests.GetSnapshotRequest;
import dev.baton.internal.core.ActionDef;
import dev.baton.internal.core.JsonSchemas;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What every agent, local or remote, publishes the same way: its descriptor, its companion actions
 * and its JSON entry point.
 */
final class AgentActions {
  private AgentActions() {}

  /**
   * The descriptor of {@code /agent/<name>}: Genkit's agent schemas, and metadata {@code {"agent":
   * <metadata>, "bidi": true, "description": ...}}, the agent entry only when the metadata is
   * known.
   */
  static ActionDescriptor descriptor(
      String name, @Nullable String description, @Nullable AgentMetadata metadata) {
    ObjectNode descriptorMetadata = Json.object();
    if (metadata != null) {
      descriptorMetadata.set("agent", Json.toTree(metadata));
    }
    descriptorMetadata.put("bidi", true);
    if (description != null) {
      descriptorMetadata.put("description", description);
    }
    return ActionDescriptor.builder(ActionType.AGENT, name)
        .description(description)
        .inputSchema(JsonSchemas.infer(AgentInput.class))
        .outputSchema(JsonSchemas.infer(AgentOutput.class))
        .streamSchema(JsonSchemas.infer(AgentStreamChunk.class))
        .initSchema(JsonSchemas.infer(AgentInit.class))
        .metadata(descriptorMetadata)
        .build();
  }

  /**
   * The companion actions: {@code /agent-snapshot/<name>} and {@code /agent-wait/<name>}, and
   * {@code /agent-abort/<name>} when {@code abort} is given.
   */
  static List<Action<?, ?, ?>> companions(
      String name,
      BiFunction<ActionContext, GetSnapshotRequest, SessionSnapshot> get,
      BiFunction<ActionContext, GetSnapshotRequest, SessionSnapshot> waitFor,
      @Nullable BiFunction<ActionContext, AbortRequest, AbortResponse> abort) {
    List<Action<?, ?, ?>> actions = new ArrayList<>();
    actions.add(
        ActionDef.builder(
                ActionType.AGENT_SNAPSHOT,
                name,
                GetSnapshotRequest.class,
                SessionSnapshot.class,
                Void.class)
            .description("Reads a snapshot of agent " + name)
            .build((ctx, request, stream) -> get.apply(ctx, request)));
    actions.add(
        ActionDef.builder(
                ActionType.AGENT_WAIT,
                name,
                GetSnapshotRequest.class,
                SessionSnapshot.class,
                Void.class)
            .description("Waits until a snapshot of agent " + name + " settles")
            .build((ctx, request, stream) -> waitFor.apply(ctx, request)));
    if (abort != null) {
      actions.add(
          ActionDef.builder(
                  ActionType.AGENT_ABORT, name, AbortRequest.class, AbortResponse.class, Void.class)
              .description("Aborts a background run of agent " + name)
              .build((ctx, request, stream) -> abort.apply(ctx, request)));
    }
    return actions;
  }

  /**
   * Runs one turn from JSON: {@code input} is an {@code AgentInput}, {@code init} an {@code
   * AgentInit} (null for a fresh session), and the output and chunks go back as JSON.
   *
   * @throws BatonException {@code INVALID_ARGUMENT} for a missing or malformed input or init
   */
  static JsonNode runJson(
      Agent agent,
      ActionContext context,
      @Nullable JsonNode input,
      @Nullable JsonNode init,
      StreamCallback<JsonNode> stream) {
    if (input == null || input.isNull() || input.isMissingNode()) {
      throw BatonException.invalidArgument(
          "action %s requires input for a one-shot run; open a streaming session to defer input",
          agent.type().key(agent.name()));
    }
    if (!input.isObject()) {
      throw BatonException.invalidArgument("the input of an agent must be a JSON object");
    }
    AgentInput typed = Json.convert(input, AgentInput.class);
    StreamCallback<AgentStreamChunk> chunks =
        stream.isDiscarding() ? StreamCallback.discard() : c -> stream.onChunk(Json.toTree(c));
    return Json.toTree(agent.run(context, typed, AgentInit.fromJson(init), chunks));
  }
}
