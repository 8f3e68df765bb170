package dev.baton.middleware;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentFinishReason;
import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentInput;
import dev.baton.agent.AgentMetadata;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.AgentRef;
import dev.baton.agent.Artifact;
import dev.baton.agent.Session;
import dev.baton.agent.SessionState;
import dev.baton.agent.StateManagement;
import dev.baton.ai.Hooks;
import dev.baton.ai.Message;
import dev.baton.ai.Part;
import dev.baton.ai.Role;
import dev.baton.ai.TextPart;
import dev.baton.ai.Tool;
import dev.baton.core.ActionContext;
import dev.baton.core.ActionType;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Registry;
import dev.baton.core.StreamCallback;
import dev.baton.internal.agent.AgentLookup;
import dev.baton.internal.core.DefaultRegistry;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The Agents middleware within one generate call: its tools, its counters, and the conversation it
 * last saw, which history forwarding reads.
 */
final class Delegation {
  private static final Logger log = LoggerFactory.getLogger(Delegation.class);

  static final String MARKER = "agents-instructions";

  /** A delegation tool's input. */
  record Input(
      @JsonPropertyDescription("A clear, self-contained description of the task to delegate.")
          String task,
      @JsonPropertyDescription(
              "Optional short label for this delegation, echoed on the result next to the task ID"
                  + " to keep several delegations readable. A reading aid, not an identifier.")
          @Nullable String name) {}

  /** An artifact as a delegation result reports it. */
  record ArtifactReport(String name, @Nullable String content) {}

  /** A delegation tool's output. */
  record Result(
      String response,
      @Nullable List<ArtifactReport> artifacts,
      @Nullable String taskId,
      @Nullable String status,
      @Nullable String name) {
    static Result text(String response, @Nullable String name) {
      return new Result(response, null, null, null, name);
    }
  }

  private final Agents config;
  private final AtomicInteger delegations = new AtomicInteger();
  private final AtomicInteger invocations = new AtomicInteger();
  private volatile List<Message> conversation = List.of();

  Delegation(Agents config) {
    this.config = config;
  }

  Hooks hooks() {
    Map<String, String> owners = new HashMap<>();
    Hooks.Builder hooks = Hooks.builder();
    for (AgentRef ref : config.agents()) {
      if (ref.name() == null || ref.name().isEmpty()) {
        throw BatonException.invalidArgument(
            "agents middleware: every agent reference must have a name");
      }
      String tool = config.toolName(ref.name());
      String owner = "agent \"" + ref.name() + "\"";
      String previous = owners.putIfAbsent(tool, owner);
      if (previous != null) {
        throw BatonException.invalidArgument(
            "agents middleware: tool name \"%s\" for %s collides with %s; use a different"
                + " ToolPrefix or agent name",
            tool, owner, previous);
      }
      hooks.tool(delegationTool(ref, tool));
    }
    return hooks
        .wrapGenerate(
            (ctx, params, next) -> {
              conversation = params.request().messages();
              return next.apply(
                  ctx,
                  params.withRequest(
                      SystemText.inject(params.request(), marker(), instructions(ctx.registry()))));
            })
        .build();
  }

  /**
   * The system-text marker: Genkit's for the usual single instance; an instance with an explicit
   * prefix gets its own, so that two instances in one call (which need distinct prefixes) each keep
   * their block.
   */
  private String marker() {
    String prefix = config.toolPrefix();
    return prefix == null || prefix.isEmpty() ? MARKER : MARKER + ":" + prefix;
  }

  private Tool<Input, Result> delegationTool(AgentRef ref, String toolName) {
    String description =
        ref.description() != null && !ref.description().isEmpty()
            ? ref.description()
            : "Delegates a task to the \"" + ref.name() + "\" sub-agent.";
    return Tool.create(
        toolName,
        description,
        Input.class,
        Result.class,
        (ctx, input) -> delegate(ctx.context(), ref.name(), input));
  }

  /** Runs one delegation; every failure becomes a result the model can read. */
  private Result delegate(ActionContext context, String agent, Input input) {
    int max = config.maxDelegations();
    // Reserve atomically and never count past the limit, so a refunded slot is really free.
    if (max > 0 && delegations.getAndUpdate(count -> count >= max ? count : count + 1) >= max) {
      return Result.text(
          "Delegation limit reached ("
              + max
              + "). Complete the task using information already gathered.",
          input.name());
    }
    int invocation = invocations.incrementAndGet();
    // The sub-agent runs against the instance's registry, not this call's child registry,
    // whose middleware tools belong to the orchestrator alone.
    ActionContext subContext = context.withRegistry(DefaultRegistry.root(context.registry()));
    try {
      Agent target;
      try {
        target = AgentLookup.find(subContext.registry(), agent);
      } catch (BatonException e) {
        return Result.text("Error: " + e.getMessage(), input.name());
      }
      AgentOutput output =
          target.run(
              subContext, AgentInput.text(input.task()), initFor(target), StreamCallback.discard());
      return fold(context, agent, invocation, output, input.name());
    } catch (RuntimeException e) {
      context.cancellation().throwIfCancelled();
      BatonException error = BatonException.from(e);
      if (!error.isPublic()) {
        log.warn("delegation to agent {} failed", agent, e);
      }
      // The public text only: the orchestrator's model may repeat it to the user.
      return Result.text(
          "Error calling agent \"" + agent + "\": " + error.toPublicErrorInfo().message(),
          input.name());
    }
  }

  /** History goes only to client-managed agents; a server-managed one owns its session. */
  private AgentInit initFor(Agent target) {
    AgentMetadata metadata = target.metadata();
    boolean clientManaged =
        metadata != null && metadata.stateManagement() == StateManagement.CLIENT;
    if (!clientManaged || config.historyLength() == 0) {
      return AgentInit.NEW;
    }
    List<Message> recent = new ArrayList<>();
    for (Message message : conversation) {
      if (message.role() != Role.USER && message.role() != Role.MODEL) {
        continue;
      }
      List<Part> text =
          message.content().stream()
              .filter(p -> p instanceof TextPart t && !t.text().isEmpty())
              .map(p -> (Part) Part.text(((TextPart) p).text()))
              .toList();
      if (!text.isEmpty()) {
        recent.add(new Message(message.role(), text));
      }
    }
    int from = Math.max(0, recent.size() - config.historyLength());
    return AgentInit.ofState(
        SessionState.empty().withMessages(recent.subList(from, recent.size())));
  }

  /**
   * The sub-agent's output as the model reads it. A run that settled with an answer is {@code
   * completed}; an aborted one {@code aborted}; any other end {@code failed}, with an error text
   * naming the task that holds its progress when the agent is server-managed. An interrupt is a
   * dead end with no handle: no sub-agent runtime exists to answer it from.
   */
  private Result fold(
      ActionContext context,
      String agent,
      int invocation,
      AgentOutput output,
      @Nullable String label) {
    String snapshotId = emptyToNull(output.snapshotId());
    String taskId = snapshotId == null ? null : agent + ":" + snapshotId;
    AgentFinishReason reason = output.finishReason();
    if (reason == AgentFinishReason.INTERRUPTED) {
      return Result.text(
          "Sub-agent \""
              + agent
              + "\" interrupted for additional input and could not complete the task."
              + " Interactive sub-agent interrupts are not currently supported; try delegating a"
              + " more self-contained task.",
          label);
    }
    String status = settledStatus(reason);
    if (!status.equals("completed")) {
      String why =
          output.error() != null && !output.error().message().isEmpty()
              ? output.error().message()
              : reason == AgentFinishReason.ABORTED
                  ? "the run was aborted."
                  : "Unknown sub-agent failure.";
      String continuation = taskId == null ? "" : " Its progress is saved as task " + taskId + ".";
      return new Result(
          "Error calling agent \"" + agent + "\": " + why + continuation,
          null,
          taskId,
          taskId == null ? null : status,
          label);
    }
    String invocationId =
        snapshotId != null
            ? agent + "_" + snapshotId.substring(0, Math.min(8, snapshotId.length()))
            : agent + "_" + invocation;
    List<ArtifactReport> reports = mergeArtifacts(context, agent, invocationId, output.artifacts());
    String response = joinedText(output.message());
    return new Result(
        response.isEmpty() ? "(no response)" : response,
        reports.isEmpty() ? null : reports,
        taskId,
        taskId == null ? null : status,
        label);
  }

  /** The task status a settled run reports: did it end with an answer? */
  private static String settledStatus(@Nullable AgentFinishReason reason) {
    if (reason == null) {
      return "completed";
    }
    return switch (reason) {
      // A blocked answer is still an answer: only failures and interrupts are errors.
      case STOP, LENGTH, BLOCKED, OTHER, UNKNOWN -> "completed";
      case ABORTED -> "aborted";
      case FAILED, INTERRUPTED, DETACHED -> "failed";
    };
  }

  private static @Nullable String emptyToNull(@Nullable String value) {
    return value == null || value.isEmpty() ? null : value;
  }

  private static String joinedText(@Nullable Message message) {
    if (message == null) {
      return "";
    }
    return message.content().stream()
        .filter(TextPart.class::isInstance)
        .map(p -> ((TextPart) p).text())
        .filter(text -> !text.isEmpty())
        .collect(Collectors.joining("\n"));
  }

  /**
   * Merges the sub-agent's named artifacts into the orchestrator's session (when there is one) as
   * {@code <invocationId>/<name>}, tagged with their source, and reports them by the strategy.
   */
  private List<ArtifactReport> mergeArtifacts(
      ActionContext context,
      String agent,
      String invocationId,
      @Nullable List<Artifact> artifacts) {
    if (artifacts == null || artifacts.isEmpty()) {
      return List.of();
    }
    Optional<Session> parent = Session.from(context);
    List<ArtifactReport> reports = new ArrayList<>();
    for (Artifact artifact : artifacts) {
      if (artifact.name() == null || artifact.name().isEmpty()) {
        continue;
      }
      String name = invocationId + "/" + artifact.name();
      ObjectNode metadata =
          artifact.metadata() == null ? Json.object() : artifact.metadata().deepCopy();
      metadata.put("source", agent);
      metadata.put("invocationId", invocationId);
      parent.ifPresent(
          session -> session.addArtifact(artifact.withName(name).withMetadata(metadata)));
      reports.add(
          new ArtifactReport(
              name, config.strategy() == ArtifactStrategy.INLINE ? artifact.text() : null));
    }
    return reports;
  }

  /** The {@code <sub-agents>} block: each tool with the best description the registry offers. */
  private String instructions(Registry registry) {
    StringBuilder text =
        new StringBuilder(
            "<sub-agents>\nYou can delegate tasks to specialized sub-agents using their delegation"
                + " tools:\n");
    for (AgentRef ref : config.agents()) {
      text.append("  - ")
          .append(config.toolName(ref.name()))
          .append(": ")
          .append(describe(registry, ref))
          .append('\n');
    }
    return text.append(
            "\nWhen a task is better handled by a specialized agent, delegate it using the"
                + " appropriate tool. Provide a clear, self-contained task description.\n"
                + "</sub-agents>")
        .toString();
  }

  private static String describe(Registry registry, AgentRef ref) {
    if (ref.description() != null && !ref.description().isEmpty()) {
      return ref.description();
    }
    for (ActionType type : List.of(ActionType.AGENT, ActionType.EXECUTABLE_PROMPT)) {
      String found =
          registry.lookup(type, ref.name()).map(a -> a.descriptor().description()).orElse(null);
      if (found != null && !found.isEmpty()) {
        return found;
      }
    }
    return "No description available.";
  }
}
