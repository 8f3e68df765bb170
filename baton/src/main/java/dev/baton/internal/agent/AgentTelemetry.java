package dev.baton.internal.agent;

import dev.baton.agent.AgentInput;
import dev.baton.ai.GenerationUsage;
import dev.baton.core.ActionContext;
import dev.baton.internal.core.DefaultRegistry;
import dev.baton.internal.core.GenAiTelemetry;
import dev.baton.internal.core.TraceSpan;
import dev.baton.internal.core.Tracing;
import org.jspecify.annotations.Nullable;

/**
 * The OpenTelemetry side of an agent invocation beyond Genkit's attributes: the GenAI agent
 * attributes of its span ({@code invoke_agent}, the agent's name and description, the session as
 * {@code gen_ai.conversation.id}, the tokens its model calls used), and the background span of a
 * detached run, which starts a trace of its own linked to the invocation that launched it.
 *
 * <p>One per invocation. Thread-safe: model calls report usage from any thread.
 */
final class AgentTelemetry {
  private final LocalAgent agent;
  private final String sessionId;
  private GenerationUsage usage = GenerationUsage.EMPTY;

  AgentTelemetry(LocalAgent agent, String sessionId) {
    this.agent = agent;
    this.sessionId = sessionId;
  }

  /** Describes an agent's span: the invocation's, or its background run's. */
  void describe(TraceSpan span) {
    span.set(GenAiTelemetry.OPERATION_NAME, GenAiTelemetry.INVOKE_AGENT);
    span.set(GenAiTelemetry.AGENT_NAME, agent.name());
    String description = agent.options().description();
    if (description != null) {
      span.set(GenAiTelemetry.AGENT_DESCRIPTION, description);
    }
    span.set(GenAiTelemetry.CONVERSATION_ID, sessionId);
    span.setMetadata("agent:sessionId", sessionId);
  }

  /**
   * The work context: model calls in it are attributed to the agent in their telemetry, which
   * tracing off does not record, so that context is the one given.
   */
  ActionContext workContext(ActionContext context) {
    return DefaultRegistry.tracing(context.registry()).isEnabled()
        ? context.with(GenAiTelemetry.AGENT, agent.name())
        : context;
  }

  /** Adds a model call's usage to the tally of the whole invocation, background work included. */
  synchronized void addUsage(GenerationUsage added) {
    usage = usage.plus(added);
  }

  /** Sets the tokens tallied so far on the span, before it ends. */
  void recordUsage(TraceSpan span) {
    GenerationUsage total;
    synchronized (this) {
      total = usage;
    }
    if (total.inputTokens() != null) {
      span.set(GenAiTelemetry.USAGE_INPUT_TOKENS, total.inputTokens().longValue());
    }
    if (total.outputTokens() != null) {
      span.set(GenAiTelemetry.USAGE_OUTPUT_TOKENS, total.outputTokens().longValue());
    }
  }

  /**
   * Opens the span of the work a detach sends to the background: the root of a trace of its own,
   * linked to the invocation's span (its launch), so the launching trace ends with the detached
   * answer while this one runs until the work does.
   *
   * @param invocationContext a context carrying the invocation's span and its work attributes
   * @param input the input the background work starts with, or null for a pure detach
   */
  Tracing.OpenSpan openBackground(ActionContext invocationContext, @Nullable AgentInput input) {
    Tracing.OpenSpan span =
        DefaultRegistry.tracing(invocationContext.registry())
            .openLinked(invocationContext, agent.name(), "action", "agent", () -> input);
    describe(span.span());
    return span;
  }

  /** Records one turn's duration, and its failure, as an agent operation. */
  static void recordTurn(
      ActionContext context, String agent, long durationNanos, @Nullable Throwable failure) {
    DefaultRegistry.tracing(context.registry())
        .genAi()
        .recordAgentTurn(
            agent, durationNanos, failure == null ? null : GenAiTelemetry.errorType(failure));
  }
}
