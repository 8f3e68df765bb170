/**
 * Agents: functions that run turns over a session, persisted as snapshots.
 *
 * <ul>
 *   <li>{@link dev.baton.agent.Agent}: define one with {@code baton.defineAgent} (a prompt it
 *       renders every turn) or {@code defineCustomAgent} (an {@link dev.baton.agent.AgentFunction}
 *       that drives its own turns). Run a turn with {@code run}, or {@link
 *       dev.baton.agent.AgentConnection connect} and send several.
 *   <li>{@link dev.baton.agent.Session} is what a turn, a tool or a middleware changes: history,
 *       custom state, artifacts and usage. {@link dev.baton.agent.SessionState} is its value, which
 *       flows between client and server.
 *   <li>{@link dev.baton.agent.SessionStore}: with one the agent is server-managed and every turn
 *       ends with a {@link dev.baton.agent.SessionSnapshot}; a client resumes by snapshot or
 *       session ID ({@link dev.baton.agent.AgentInit}). Without one it is client-managed: the
 *       output carries the state for the client to send back.
 *   <li>Detach: an {@link dev.baton.agent.AgentInput} with {@code detach} returns a pending
 *       snapshot at once while the work goes on in the background, heartbeating its row; the
 *       agent's {@link dev.baton.agent.AgentSnapshots} wait for it and abort it, from any process
 *       sharing the store. Failed and aborted runs can be continued ({@link
 *       dev.baton.agent.AgentInit#continueFrom}).
 *   <li>Usage: a session records its own agent's model calls ({@link
 *       dev.baton.agent.SessionState#usage}); an agent defined with {@code usageTree} also records
 *       each turn's spend as a tree over the agents it delegated to ({@link
 *       dev.baton.agent.AgentUsage}).
 * </ul>
 *
 * <pre>{@code
 * Agent agent = baton.defineAgent("chat",
 *     InlinePrompt.builder().model("googleai/gemini-flash-latest").system("Be brief.").build(),
 *     AgentOptions.builder().sessionStore(FileSessionStore.builder(dir).build()).build());
 *
 * AgentOutput started = agent.run(baton.context(),
 *     AgentInput.text("Summarise the logs").withDetach(true)); // returns at once, pending
 * SessionSnapshot done = agent.snapshots().waitFor(started.snapshotId());
 * }</pre>
 */
@NullMarked
package dev.baton.agent;

import org.jspecify.annotations.NullMarked;
