/**
 * The Model Context Protocol for Baton, on the official MCP Java SDK (protocol version 2025-11-25
 * and earlier, as the SDK negotiates).
 *
 * <h2>Using an MCP server's tools</h2>
 *
 * <p>{@link dev.baton.mcp.Mcp#client} configures an {@link dev.baton.mcp.McpClient}: a server Baton
 * runs as a child process speaking MCP on stdin and stdout, or one at a streamable HTTP endpoint.
 * Added to Baton as a plugin, the client serves the server's tools as {@code <client>/<tool>}
 * ({@code fs/read_file}): an agent or a generate call that names one resolves it through the
 * registry. {@link dev.baton.mcp.McpClient#tools()} gives the same tools as a plain list for {@code
 * GenerateOptions.tools} or {@code InlinePrompt.tools}. Either way the calls run in Baton's tool
 * loop, so middleware (tool approval, tool call feedback) and tracing apply as to any tool; each
 * call's span names the client ({@code genkit:metadata:mcp:client}).
 *
 * <p>A tool keeps the server's description and input schema as sent, {@code $defs} and draft
 * 2020-12 keywords included; Baton validates the model's input against it before the call. A tool
 * whose schema is not valid JSON Schema (checked against the meta-schema its {@code $schema} names,
 * else draft-07) is left out of {@code tools()}, so no model provider is sent a schema it may
 * refuse with the whole request; called by name, it fails with {@code INVALID_ARGUMENT} saying what
 * is wrong, and the server's other tools are unharmed. A result becomes the tool's answer:
 *
 * <ul>
 *   <li>text content: a {@code TextPart};
 *   <li>image and audio content: a {@code MediaPart} whose URL is a {@code data:} URL of the
 *       content's MIME type;
 *   <li>an embedded resource: a {@code TextPart} (text) or a {@code MediaPart} (blob), whose
 *       metadata holds {@code {"resource": {"uri", "mimeType"}}};
 *   <li>a resource link: a {@code TextPart} naming the link, whose metadata holds {@code
 *       {"resourceLink": {"uri", "name", "mimeType"}}};
 *   <li>the output: the structured content when there is one, else the texts joined by newlines;
 *   <li>a result flagged {@code isError}: still an answer, so the model reads what went wrong:
 *       {@code {"isError": true, "error": <the texts>}}.
 * </ul>
 *
 * <h2>An MCP server's prompts and resources</h2>
 *
 * <p><b>Prompts</b> are Baton prompts. {@code client.prompt("review")} is an {@code
 * ExecutablePrompt} named {@code <client>/review}; a client registered as a plugin also serves it
 * to lookups of {@code /executable-prompt/<client>/review}, and {@code client.prompts()} lists them
 * all. Rendering one sends {@code prompts/get} with the input as the prompt's arguments:
 *
 * <ul>
 *   <li>The input is an object (or null, for none). MCP prompt arguments are strings: a string
 *       field goes as it is, a number, boolean, object or array as its JSON text ({@code 7}, {@code
 *       {"a":1}}), and a null field is left out.
 *   <li>The prompt's input schema is an object with one string property per argument, its
 *       description kept, the required arguments required. Input that reaches the prompt as JSON
 *       (the Dev UI, a served action) is validated against it; a required argument missing from any
 *       input is {@code INVALID_ARGUMENT} naming it, before the server is asked.
 *   <li>The server's messages become Baton messages, a user message as a user message and an
 *       assistant message as a model message, each block of content a part, mapped as tool results
 *       are: text as text, images and audio as media with a {@code data:} URL, an embedded resource
 *       as text or media with {@code {"resource": {"uri": …}}} in its metadata. In an agent, the
 *       conversation follows these messages.
 *   <li>An MCP prompt has no model: give one when rendering ({@code prompt.render(context, input,
 *       history).model(...)}), or take the prompt with {@code client.prompt(name,
 *       InlinePrompt.builder().model(...).build())}, whose model, config, tools and other options
 *       it keeps and whose messages the server's replace.
 *   <li>A prompt the server does not have is {@code NOT_FOUND} naming it; other failures come from
 *       the server as the client's requests' do.
 * </ul>
 *
 * <p><b>Resources</b> reach a model two ways. As tools: when the server has resources, {@code
 * client.tools()} (and a lookup by name) includes two tools of the client's own, {@code
 * <client>/list_resources}, which answers {@code {"resources": [{uri, name, title?, description?,
 * mimeType?}], "resourceTemplates": [{uriTemplate, name, …}]}}, and {@code <client>/read_resource},
 * whose input is {@code {"uri": …}} (a listed URI or one a template makes) and whose answer is the
 * resource's text as output and every content as a part, text as text and blobs as media. A read
 * the server refuses (an unknown URI) answers the model with {@code {"error": …}}, for it to try
 * another; a server that is down or late fails the call. A server's own tool of one of those names
 * keeps it. As parts: {@code client.resource(uri)} reads one for the application to put in a
 * message. Resource subscriptions are not used.
 *
 * <p>The lists of prompts and of resources are fetched on first use and kept until the server
 * announces a change ({@code notifications/prompts/list_changed}, {@code
 * notifications/resources/list_changed}); a rendering checks the prompt against the current list.
 *
 * <h2>Lifecycle</h2>
 *
 * <p>Baton owns the servers it starts. A stdio server starts when first used (a lookup of one of
 * its tools or prompts, {@code tools()}, {@code prompt(name)}, a call), never when the client or
 * Baton is built. Its process gets the client's {@code environment(...)} and a few safe variables
 * of the JVM's ({@code PATH}, {@code HOME}, ...), not the JVM's whole environment, unless the
 * client is built with {@code inheritEnvironment()}. {@code close()} stops it with its whole
 * process tree ({@code npx} starts the real server as its child): stdin closed, then SIGTERM, then
 * SIGKILL for what is left after two seconds; {@code Baton.close()} does it for a registered
 * client, and an unregistered one is the application's to close. A server that dies answers its
 * calls in flight with {@code UNAVAILABLE} naming the client, and the next call starts it again;
 * one that exits at start says with which code, and its stderr goes to the log (never into the
 * error: it may hold stack traces or secrets). A request waits at most the client's timeout ({@code
 * DEADLINE_EXCEEDED}) and no longer than its caller's cancellation. A tool call that times out or
 * whose caller is cancelled (whatever the status) tells the server with {@code
 * notifications/cancelled}; other requests (rendering a prompt, reading a resource, listings) stop
 * waiting without telling it. A server's JSON-RPC errors map to Genkit statuses; its text reaches a
 * remote caller only for {@code INVALID_ARGUMENT} and {@code NOT_FOUND}. When the server announces
 * {@code notifications/tools/list_changed}, {@code tools()} and later lookups give the new list and
 * a removed tool's calls fail with {@code NOT_FOUND}; a tool already resolved through a registry
 * (which keeps what it resolved) or taken from an earlier {@code tools()} keeps its old description
 * and schema. Calls on one client run in parallel.
 *
 * <h2>Serving Baton over MCP</h2>
 *
 * <p>{@link dev.baton.mcp.Mcp#server Mcp.server(baton)} configures an {@link
 * dev.baton.mcp.McpServer} of chosen tools, flows, agents (each an MCP tool) and prompts:
 *
 * <pre>{@code
 * McpServer mcp = Mcp.server(baton)
 *     .tools("weather").flows("summarize").agents("researcher").prompts("greeting")
 *     .contextProvider(ContextProviders.bearerToken(tokens::verify))
 *     .build();
 * mcp.serveStdio();                                    // a desktop client's child process
 * BatonServer.start("0.0.0.0", 8080, batonHandler, mcp.handler());   // or streamable HTTP at /mcp
 * }</pre>
 *
 * <p>Over stdio nothing else may write to {@code System.out}. Over HTTP the context providers
 * authenticate every request as a {@code BatonHandler}'s do, and their auth context is the {@code
 * ActionContext.auth()} of the actions called, and an MCP session answers only the principal that
 * opened it. Errors reach clients with public messages only: a tool call's as an {@code isError}
 * result, a prompt's as a JSON-RPC error. See {@link dev.baton.mcp.McpServer} for the mapping of
 * each kind of action, progress, cancellation and shutdown.
 *
 * <h2>Why the SDK</h2>
 *
 * <p>The module speaks MCP through the official Java SDK's classic API (its handshake, JSON-RPC
 * framing, transports and schema types) with Baton's Jackson mapper, so protocol details follow the
 * SDK rather than a second implementation. What the SDK leaves out, Baton adds around it: the
 * child's process tree, the cancellation notification (sent by the client, honoured by the server
 * over HTTP), and Genkit statuses for its errors.
 */
@NullMarked
package dev.baton.mcp;

import org.jspecify.annotations.NullMarked;
