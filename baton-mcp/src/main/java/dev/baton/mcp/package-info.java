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
 * 2020-12 keywords included; Baton validates the model's input against it before the call (a schema
 * Baton cannot read fails that tool's calls with {@code INVALID_ARGUMENT}, not the others). A
 * result becomes the tool's answer:
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
 * <p>MCP prompts and resources are exposed through the same client.
 *
 * <h2>Lifecycle</h2>
 *
 * <p>Baton owns the servers it starts. A stdio server starts when first used (a lookup of one of
 * its tools, {@code tools()}, a call), never when the client or Baton is built. {@code close()}
 * stops it with its whole process tree ({@code npx} starts the real server as its child), as {@code
 * Baton.close()} does for a registered client; an unregistered one is the application's to close. A
 * server that dies answers its calls in flight with {@code UNAVAILABLE} naming the client, and the
 * next call starts it again; one that exits at start says so with the tail of its stderr. A call
 * waits at most the client's timeout ({@code DEADLINE_EXCEEDED}); a call that times out or whose
 * caller is cancelled tells the server with {@code notifications/cancelled}. When the server
 * announces {@code notifications/tools/list_changed}, the client's tools are the new list, and a
 * removed tool's calls fail with {@code NOT_FOUND}. Calls on one client run in parallel.
 *
 * <h2>Why the SDK</h2>
 *
 * <p>The module speaks MCP through the official Java SDK's classic API (its handshake, JSON-RPC
 * framing, transports and schema types) with Baton's Jackson mapper, so protocol details follow the
 * SDK rather than a second implementation. What the SDK leaves out, Baton adds around it: the
 * child's process tree, the cancellation notification, and Genkit statuses for its errors.
 */
@NullMarked
package dev.baton.mcp;

import org.jspecify.annotations.NullMarked;
