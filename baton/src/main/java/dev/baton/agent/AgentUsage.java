package dev.baton.agent;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.baton.ai.GenerationUsage;
import dev.baton.ai.Message;
import dev.baton.core.Json;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * What one agent turn spent, as a tree: the agent's own model calls, and a child for every agent
 * invocation it started in this process (each synchronous and background delegation, with the
 * delegations nested in those under them). Baton's extension, off by default: an agent collects its
 * turns' trees when defined with {@link AgentOptions.Builder#usageTree}, and every agent it
 * delegates to in-process joins its tree, recording its own part in its own session too. A remote
 * agent's calls stay in its own process and are not in the tree.
 *
 * <p>The tree of a turn is recorded on the turn's final model message as {@code
 * metadata.usageTree}, so it reads from the output's message and from the session's history ({@link
 * #of}). In JSON a node reads {@code {"agent", "sessionId", "finishReason", "calls": [usage, ...],
 * "models": {"<model>": usage, ...}, "usage", "total", "children": [...]}}, where {@code models}
 * sums the node's calls by model, {@code usage} sums the node's calls and {@code total} adds its
 * children's totals; {@code usage} and {@code total} are derived, and ignored when read. A tree
 * recorded before nodes named their models reads with {@code models} empty.
 *
 * <p>A background delegation joins the tree of the turn that launched it at its launch, with all it
 * spends when it settles before that turn ends. When the turn ends first, its tree shows the task
 * as running, with no finish reason and nothing spent, and the task joins the tree of the later
 * turn whose {@code check_background_tasks} or {@code wait_for_background_tasks} (or abort) first
 * reports it settled: as a child with the settled tree its own session recorded on its final
 * message. So every call counts in one turn's tree, and the trees of a conversation's turns add up
 * without counting any twice. A task no later turn reports settled stays in its own session's tree
 * only. Immutable.
 *
 * @param agent the agent's name
 * @param sessionId the session the turn ran in
 * @param finishReason how the turn ended; absent while it runs ({@code unknown} for a turn that
 *     reported no reason)
 * @param calls the usage of each of the turn's own model calls that reported usage, in the order
 *     they returned
 * @param models the turn's own calls summed by the name of the model that made them (the name it is
 *     registered under, as {@code googleai/gemini-flash-latest}), in the order each model first
 *     returned; empty when not recorded
 * @param children the agent invocations the turn started, in the order they started
 */
@JsonIgnoreProperties(
    value = {"usage", "total"},
    allowGetters = true)
public record AgentUsage(
    String agent,
    @Nullable String sessionId,
    @Nullable AgentFinishReason finishReason,
    List<GenerationUsage> calls,
    Map<String, GenerationUsage> models,
    List<AgentUsage> children) {

  /** The metadata key the tree of a turn is recorded under on its final message. */
  public static final String METADATA_KEY = "usageTree";

  public AgentUsage {
    calls = calls == null ? List.of() : List.copyOf(calls);
    // Copied into a map that keeps the order, which Map.copyOf would lose.
    models = models == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(models));
    children = children == null ? List.of() : List.copyOf(children);
  }

  /** The tree of a turn still running: no finish reason, nothing spent, no children. */
  public static AgentUsage running(String agent, @Nullable String sessionId) {
    return new AgentUsage(agent, sessionId, null, List.of(), Map.of(), List.of());
  }

  public AgentUsage withFinishReason(@Nullable AgentFinishReason finishReason) {
    return new AgentUsage(agent, sessionId, finishReason, calls, models, children);
  }

  public AgentUsage withCalls(List<GenerationUsage> calls) {
    return new AgentUsage(agent, sessionId, finishReason, calls, models, children);
  }

  public AgentUsage withModels(Map<String, GenerationUsage> models) {
    return new AgentUsage(agent, sessionId, finishReason, calls, models, children);
  }

  public AgentUsage withChildren(List<AgentUsage> children) {
    return new AgentUsage(agent, sessionId, finishReason, calls, models, children);
  }

  /** The sum of this turn's own calls. */
  @JsonProperty("usage")
  public GenerationUsage usage() {
    GenerationUsage sum = GenerationUsage.EMPTY;
    for (GenerationUsage call : calls) {
      sum = sum.plus(call);
    }
    return sum;
  }

  /** This turn's own usage plus every child's total. */
  @JsonProperty("total")
  public GenerationUsage total() {
    GenerationUsage sum = usage();
    for (AgentUsage child : children) {
      sum = sum.plus(child.total());
    }
    return sum;
  }

  /** Whether the turn was still running when the tree was taken. */
  public boolean isRunning() {
    return finishReason == null;
  }

  /** The tree recorded on a message ({@code metadata.usageTree}), if it carries one. */
  public static Optional<AgentUsage> of(@Nullable Message message) {
    if (message == null || message.metadata() == null) {
      return Optional.empty();
    }
    JsonNode tree = message.metadata().get(METADATA_KEY);
    return tree == null || !tree.isObject()
        ? Optional.empty()
        : Optional.of(Json.convert(tree, AgentUsage.class));
  }
}
