/**
 * Multi-agent middleware: {@link dev.baton.middleware.agents.Agents} makes every sub-agent a tool
 * ({@code delegate_to_<agent>}) the orchestrator's model calls with a task, in the foreground or
 * the background, and lets a server-managed sub-agent's work be continued; {@link
 * dev.baton.middleware.agents.Artifacts} gives the model {@code read_artifact} and {@code
 * write_artifact} tools over the session's artifacts and lists them in the system prompt.
 *
 * <pre>{@code
 * Agent coordinator = baton.defineAgent("coordinator",
 *     InlinePrompt.builder()
 *         .model("googleai/gemini-flash-latest")
 *         .system("Delegate to specialists, then answer the user.")
 *         .use(Agents.builder().agents(researcher.ref(), coder.ref()).maxDelegations(5).build(),
 *             Artifacts.readOnly())
 *         .build(),
 *     AgentOptions.builder().sessionStore(store).build());
 * }</pre>
 *
 * <p><b>Experimental</b>, as Genkit's {@code exp} packages are: it may change in any release. The
 * middleware work inside agents, which need an instance built with {@code
 * Baton.builder().experimental()}; only such an instance registers them by name ({@code
 * genkit-middleware-exp/agents}, {@code genkit-middleware-exp/artifacts}).
 */
@NullMarked
package dev.baton.middleware.agents;

import org.jspecify.annotations.NullMarked;
