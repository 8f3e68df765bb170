package dev.baton.internal.agent;

import dev.baton.agent.AgentFinishReason;
import dev.baton.agent.AgentFunction;
import dev.baton.agent.AgentInput;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.AgentRunner;
import dev.baton.agent.Session;
import dev.baton.agent.TurnResult;
import dev.baton.ai.ExecutablePrompt;
import dev.baton.ai.FinishReason;
import dev.baton.ai.GenerateOptions;
import dev.baton.ai.GenerateResponse;
import dev.baton.ai.InlinePrompt;
import dev.baton.ai.Message;
import dev.baton.ai.ModelResponseChunk;
import dev.baton.ai.Part;
import dev.baton.ai.Role;
import dev.baton.ai.ToolRequestPart;
import dev.baton.ai.ToolResponsePart;
import dev.baton.core.ActionContext;
import dev.baton.core.ActionType;
import dev.baton.core.BatonException;
import dev.baton.core.Registry;
import dev.baton.core.Status;
import dev.baton.core.StreamCallback;
import dev.baton.internal.ai.Generate;
import dev.baton.internal.ai.GenerateRun;
import dev.baton.internal.ai.PromptScaffolding;
import dev.baton.internal.core.SharedList;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Agents whose every turn renders a prompt and runs generate over the session's history.
 *
 * <p>A turn takes a user message, a resume of the last turn's interrupts, or a retry of an
 * unfinished turn. The prompt renders with the history in its context and tags the messages it
 * renders itself {@code _genkit_prompt} ({@link PromptScaffolding}). After generate the session's
 * history becomes the conversation the loop returned minus those messages, which captures the tool
 * loop's messages and persists any trimming the prompt did. Scaffolding is never stored. A run a
 * budget stops ({@link GenerateRun#stoppedWith}) keeps the conversation it reached the same way
 * before the turn ends aborted.
 *
 * <p>Stateless: the agents it defines are thread-safe, each invocation working on its own session.
 */
public final class PromptAgents {
  private PromptAgents() {}

  /**
   * Registers a prompt under the agent's name and an agent that runs it every turn. The caller
   * defines agents one at a time ({@code Baton} does), so that no agent takes the name between the
   * check and the registrations.
   *
   * @throws BatonException {@code ALREADY_EXISTS} when an agent has the name; nothing is registered
   *     then
   */
  public static LocalAgent define(
      Registry registry, String name, InlinePrompt prompt, AgentOptions options) {
    // Checked before the prompt is registered: the prompt's key would otherwise be the one refused,
    // or the prompt would stay registered without its agent.
    if (registry.lookup(ActionType.AGENT, name).isPresent()) {
      throw BatonException.of(
          Status.ALREADY_EXISTS, "an agent named \"%s\" is already defined", name);
    }
    ExecutablePrompt executable =
        registry.register(ExecutablePrompt.create(name, options.description(), prompt));
    return LocalAgent.define(registry, name, function(executable, null), options);
  }

  /**
   * Defines an agent over a prompt already registered, by default the one named like the agent. The
   * prompt is rendered once now with {@code input}, so a broken prompt fails at definition.
   *
   * @throws BatonException {@code NOT_FOUND} when the prompt does not exist
   */
  public static LocalAgent defineFromPrompt(
      Registry registry,
      String name,
      @Nullable String promptName,
      @Nullable Object input,
      AgentOptions options) {
    ExecutablePrompt executable =
        ExecutablePrompt.lookup(registry, promptName == null ? name : promptName);
    executable.render(ActionContext.root(registry), input, List.of());
    return LocalAgent.define(registry, name, function(executable, input), options);
  }

  /** The agent function that runs a prompt every turn. */
  public static AgentFunction function(ExecutablePrompt prompt, @Nullable Object input) {
    return runner -> {
      runner.run((context, turnInput) -> turn(runner, prompt, input, context, turnInput));
      return runner.result();
    };
  }

  private static TurnResult turn(
      AgentRunner runner,
      ExecutablePrompt prompt,
      @Nullable Object promptInput,
      ActionContext context,
      AgentInput input) {
    validate(input, runner.session().messages());
    Session session = runner.session();
    List<Message> history = session.messages();
    GenerateOptions rendered =
        prompt.render(context.with(PromptScaffolding.KEY, true), promptInput, history).build();
    GenerateResponse response;
    try {
      response =
          Generate.generate(
              context,
              rendered.toBuilder().resume(input.resume()).onChunk(chunkSink(runner)).build());
    } catch (BatonException e) {
      // A stopped run keeps what it did: the turn ends aborted with the conversation so far.
      GenerateRun.stoppedWith(e)
          .ifPresent(stopped -> session.setMessages(withoutScaffolding(stopped.history())));
      throw e;
    }
    session.setMessages(withoutScaffolding(response.history()));
    if (response.finishReason() == FinishReason.INTERRUPTED) {
      List<Part> interrupts = new ArrayList<>(response.interrupts());
      runner.sendChunk(ModelResponseChunk.of(Role.TOOL, interrupts));
    }
    return new TurnResult(AgentFinishReason.of(response.finishReason()));
  }

  /** Where the model's chunks go: nowhere when nobody reads them, so generate builds none. */
  private static StreamCallback<ModelResponseChunk> chunkSink(AgentRunner runner) {
    return runner instanceof Runner own && own.discardsChunks()
        ? StreamCallback.discard()
        : runner::sendChunk;
  }

  /**
   * The conversation without its scaffolding. Scaffolding that only leads or trails it (a system
   * message first) leaves a range of the conversation, which shares its array rather than copying
   * it; scaffolding among the history costs a copy.
   */
  private static List<Message> withoutScaffolding(List<Message> conversation) {
    int start = 0;
    int end = conversation.size();
    while (start < end && conversation.get(start).hasFlag(PromptScaffolding.PROMPT)) {
      start++;
    }
    while (end > start && conversation.get(end - 1).hasFlag(PromptScaffolding.PROMPT)) {
      end--;
    }
    int first = start;
    while (first < end && !conversation.get(first).hasFlag(PromptScaffolding.PROMPT)) {
      first++;
    }
    if (first == end) {
      return SharedList.copyOf(conversation).subList(start, end);
    }
    SharedList.Builder<Message> kept = SharedList.builder(end - start);
    for (Message message : conversation.subList(start, end)) {
      if (!message.hasFlag(PromptScaffolding.PROMPT)) {
        kept.add(message);
      }
    }
    return kept.build();
  }

  private static void validate(AgentInput input, List<Message> history) {
    Message message = input.message();
    boolean resumes = input.resume() != null && !input.resume().isEmpty();
    if (message == null && !resumes) {
      if (input.isRetry()) {
        requireUnfinishedTurn(history);
        return;
      }
      throw BatonException.invalidArgument("agent input message or resume is required");
    }
    if (message == null) {
      return;
    }
    if (message.role() != Role.USER) {
      throw BatonException.invalidArgument(
          "agent input message must have role \"user\", got \"%s\"", message.role().wireName());
    }
    for (Part part : message.content()) {
      if (part instanceof ToolRequestPart || part instanceof ToolResponsePart) {
        throw BatonException.invalidArgument(
            "agent input message must not contain tool request or response parts; use"
                + " AgentInput.resume instead");
      }
    }
  }

  /** A retry re-runs a turn the history left unfinished: one ending in a user or tool message. */
  private static void requireUnfinishedTurn(List<Message> history) {
    Role last = history.isEmpty() ? null : history.get(history.size() - 1).role();
    if (last != Role.USER && last != Role.TOOL) {
      throw BatonException.failedPrecondition(
          "there is no unfinished turn to retry: the session's last turn completed; send a"
              + " message instead");
    }
  }
}
