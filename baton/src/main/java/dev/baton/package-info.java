/**
 * Baton: Genkit's agent model for the JVM. Everything starts from a {@link dev.baton.Baton}
 * instance: build one with its plugins, then define flows, tools, prompts and agents on it, and
 * generate.
 *
 * <pre>{@code
 * Baton baton = Baton.builder()
 *     .experimental()                 // agents are experimental, as in Genkit
 *     .plugin(new GoogleAI())         // reads GEMINI_API_KEY
 *     .build();
 *
 * GenerateResponse answer = baton.generate(GenerateOptions.builder()
 *     .model("googleai/gemini-flash-latest")
 *     .prompt("Why is the sky blue?")
 *     .build());
 *
 * Agent chat = baton.defineAgent("chat",
 *     InlinePrompt.builder().model("googleai/gemini-flash-latest").system("Be brief.").build(),
 *     AgentOptions.builder().sessionStore(InMemorySessionStore.create()).build());
 * AgentOutput first = chat.runText("Hello!");
 * AgentOutput next = chat.runText("And then?", AgentInit.ofSession(first.sessionId()));
 * }</pre>
 *
 * <p>The packages below hold the rest: {@link dev.baton.core} (actions, contexts, errors, JSON),
 * {@link dev.baton.ai} (messages, models, tools, prompts, middleware hooks), {@link
 * dev.baton.agent} (agents, sessions, snapshots and the store contract), {@link
 * dev.baton.agent.store} (the bundled stores) and {@link dev.baton.middleware} (delegation,
 * artifacts, retry, fallback, tool approval).
 */
@NullMarked
package dev.baton;

import org.jspecify.annotations.NullMarked;
