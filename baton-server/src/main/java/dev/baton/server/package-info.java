/**
 * Agents and flows over HTTP, in Genkit's wire format, so Genkit's clients (the JS {@code
 * remoteAgent}, Go, another Baton's {@code defineRemoteAgent}) drive them as they drive Genkit's
 * own servers.
 *
 * <p>{@link dev.baton.server.BatonHandler} answers {@code POST /agents/<name>} (one turn per
 * request), its companions {@code /agents/<name>/getSnapshot}, {@code /waitForSnapshot} and {@code
 * /abort}, and {@code POST /flows/<name>}, or routes the application chooses ({@code agentAt},
 * {@code flowAt}): a body {@code {"data": <input>, "init": <init>}} in, {@code {"result":
 * <output>}} out, or Server-Sent Events with {@code ?stream=true} or {@code Accept:
 * text/event-stream}. {@link dev.baton.server.ContextProvider}s turn each request into the auth
 * context agents, tools and middleware read, or refuse it; {@link
 * dev.baton.server.ContextProviders} has bearer-token and API-key ones.
 *
 * <pre>{@code
 * BatonHandler handler = BatonHandler.builder(baton)
 *     .allAgents()
 *     .contextProvider(ContextProviders.bearerToken(token -> users.principalOf(token)))
 *     .build();
 * try (BatonServer server = BatonServer.start(handler, "127.0.0.1", 8080)) {
 *   server.join();
 * }
 * }</pre>
 */
@NullMarked
package dev.baton.server;

import org.jspecify.annotations.NullMarked;
