/**
 * What every Baton call is made of: actions, the context they run in, and the errors they fail
 * with.
 *
 * <ul>
 *   <li>{@link dev.baton.core.Action}: a named, typed, traced unit of work (a model, a tool, a
 *       flow, an agent), run typed from Java or with JSON from a server; {@link
 *       dev.baton.core.Flow} is the one you define for your own functions.
 *   <li>{@link dev.baton.core.ActionContext}: passed explicitly from caller to callee, as Go passes
 *       {@code ctx}: the registry, the auth context, a {@link dev.baton.core.Cancellation} and
 *       typed attributes such as the current agent session.
 *   <li>{@link dev.baton.core.BatonException}: every failure, with a gRPC-style {@link
 *       dev.baton.core.Status} and a message that reaches remote clients only when it is public.
 *   <li>{@link dev.baton.core.Json}: the one Jackson mapper Baton reads and writes Genkit's JSON
 *       with. The schemas tools and flows publish are inferred from their Java types.
 * </ul>
 *
 * <pre>{@code
 * Flow<String, String, Void> shout = baton.defineFlow("shout", String.class, String.class,
 *     (ctx, text) -> {
 *       ctx.cancellation().throwIfCancelled();
 *       return text.toUpperCase(Locale.ROOT);
 *     });
 * shout.run("hello");                          // "HELLO", traced as /flow/shout
 * }</pre>
 *
 * <p>A {@link dev.baton.core.Plugin} contributes actions to a {@link dev.baton.core.Registry} when
 * the instance is built: that is how model providers add their models.
 */
@NullMarked
package dev.baton.core;

import org.jspecify.annotations.NullMarked;
