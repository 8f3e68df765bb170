/**
 * The bundled middleware. Attach them with {@code use(...)} on a prompt or generate options, as
 * objects or by their registered names with JSON config.
 *
 * <ul>
 *   <li>{@link dev.baton.middleware.Agents}: delegation. Every sub-agent becomes a tool ({@code
 *       delegate_to_<agent>}) the orchestrator's model calls with a task; failures come back as
 *       text the model can act on, and a server-managed sub-agent's work can be continued.
 *   <li>{@link dev.baton.middleware.Artifacts}: {@code read_artifact} and {@code write_artifact}
 *       tools over the session's artifacts, and their listing in the system prompt.
 *   <li>{@link dev.baton.middleware.Budget}: token and cost caps on a run (sub-agents included) or
 *       a session, which stop the run as aborted or hold its tool calls for approval.
 *   <li>{@link dev.baton.middleware.ContextCompression}: keeps a conversation inside a context
 *       budget by deduplicating, truncating, summarising or dropping older messages.
 *   <li>{@link dev.baton.middleware.Retry}, {@link dev.baton.middleware.Fallback} and {@link
 *       dev.baton.middleware.ToolApproval}: retries with backoff, other models on failure, and
 *       interrupts for tool calls that need a person's approval.
 *   <li>{@link dev.baton.middleware.ToolCallFeedback}: answers the model's calls to unknown tools,
 *       or with input failing a tool's schema, with what is wrong, so the model can fix them,
 *       instead of failing the call.
 * </ul>
 *
 * <pre>{@code
 * Agent coordinator = baton.defineAgent("coordinator",
 *     InlinePrompt.builder()
 *         .model("googleai/gemini-flash-latest")
 *         .system("Delegate to specialists, then answer the user.")
 *         .use(Agents.builder().agents(researcher.ref(), coder.ref()).maxDelegations(5).build(),
 *             Artifacts.builder().readonly(true).build())
 *         .build(),
 *     AgentOptions.builder().sessionStore(store).build());
 * }</pre>
 *
 * <p>{@link dev.baton.middleware.ExperimentalMiddleware} and {@link
 * dev.baton.middleware.StableMiddleware} are plugins that register them by name ({@code
 * genkit-middleware-exp/agents}, {@code genkit-middleware/retry}, ...), for configuration-driven
 * setups and Genkit's tools.
 */
@NullMarked
package dev.baton.middleware;

import org.jspecify.annotations.NullMarked;
