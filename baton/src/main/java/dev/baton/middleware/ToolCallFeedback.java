package dev.baton.middleware;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.baton.ai.Hooks;
import dev.baton.ai.Middleware;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.internal.ai.GenerateRun;
import dev.baton.internal.core.Defaulted;

/**
 * Lets the model fix its own bad tool calls. Without it a generate call fails, as Genkit's does,
 * when the model calls a tool the call does not offer ({@code NOT_FOUND}) or passes input that
 * fails the tool's input schema ({@code INVALID_ARGUMENT}). With it such a call does not run: the
 * tool loop answers it with a tool response the model reads on its next turn, and the model may
 * call again.
 *
 * <ul>
 *   <li>For an unknown tool: {@code {"error": "...", "offeredTools": ["search", "weather"]}}.
 *   <li>For bad input: {@code {"error": "...", "validationErrors": [{"path": "$.city", "message":
 *       "required property 'city' not found (required)"}]}}.
 * </ul>
 *
 * <p>Good calls of the same model response run as usual. At most {@link #maxRetries} model
 * responses with bad calls are answered in one generate call (one agent turn); the next bad call
 * fails the call with Genkit's error. Answered rounds are tool rounds like any other, so {@code
 * maxTurns} bounds them too. A bad call is answered before any {@code wrapTool} hook sees it, so
 * ToolApproval never asks a person about a call that cannot run. Where it is listed does not
 * matter.
 *
 * <pre>{@code
 * GenerateOptions.builder().model("googleai/gemini-flash-latest").tools(weather)
 *     .use(new ToolCallFeedback()).prompt("Weather in Oslo?").build();
 * }</pre>
 *
 * <p>Usable by name as {@code genkit-middleware-exp/toolCallFeedback}, a Baton extension that
 * Genkit's other languages do not have. Immutable and thread-safe.
 *
 * @param maxRetries model responses with bad tool calls answered per generate call; default 3
 */
public record ToolCallFeedback(
    @Defaulted
        @JsonPropertyDescription(
            "Model responses with bad tool calls (an unknown tool, or input failing the tool's"
                + " schema) answered per generate call, so the model can fix them; the next one"
                + " fails the call. Defaults to 3.")
        int maxRetries)
    implements Middleware {

  public static final int DEFAULT_MAX_RETRIES = 3;

  public ToolCallFeedback {
    if (maxRetries < 0) {
      throw BatonException.invalidArgument(
          "toolCallFeedback needs maxRetries >= 0, got %d", maxRetries);
    }
  }

  /** Answers bad tool calls in up to {@value #DEFAULT_MAX_RETRIES} model responses. */
  public ToolCallFeedback() {
    this(DEFAULT_MAX_RETRIES);
  }

  @Override
  public String name() {
    return "genkit-middleware-exp/toolCallFeedback";
  }

  @Override
  public Hooks newHooks(ActionContext context) {
    GenerateRun.of(context)
        .orElseThrow(
            () ->
                BatonException.failedPrecondition(
                    "toolCallFeedback: the middleware works only within a generate call"))
        .answerBadToolCalls(maxRetries);
    return Hooks.NONE;
  }
}
