/**
 * The stable bundled middleware. Attach them with {@code use(...)} on a prompt or generate options,
 * as objects or by their registered names with JSON config ({@link
 * dev.baton.ai.MiddlewareDescriptor#lookup}): every Baton instance registers them.
 *
 * <ul>
 *   <li>{@link dev.baton.middleware.Retry} ({@code genkit-middleware/retry}): retries failed model
 *       calls with backoff;
 *   <li>{@link dev.baton.middleware.Fallback} ({@code genkit-middleware/fallback}): tries other
 *       models when a model call fails;
 *   <li>{@link dev.baton.middleware.ToolApproval} ({@code genkit-middleware/toolApproval}):
 *       interrupts tool calls that need a person's approval;
 *   <li>{@link dev.baton.middleware.ToolCallFeedback} ({@code
 *       genkit-middleware-exp/toolCallFeedback}, Genkit's name for it): answers the model's calls
 *       to unknown tools, or with input failing a tool's schema, with what is wrong, so the model
 *       can fix them, instead of failing the call.
 * </ul>
 *
 * <p>Stable: they need no {@code experimental()}. The middleware that work on agent sessions are
 * experimental and live in their own packages, as Genkit keeps them in its {@code exp} packages:
 * {@link dev.baton.middleware.agents} (delegation and artifacts), {@link
 * dev.baton.middleware.budget} (usage caps) and {@link dev.baton.middleware.compression} (context
 * compression).
 */
@NullMarked
package dev.baton.middleware;

import org.jspecify.annotations.NullMarked;
