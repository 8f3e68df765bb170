/**
 * The Model Context Protocol for Baton, on the official MCP Java SDK (protocol version 2025-11-25
 * and earlier, as the SDK negotiates).
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
 * ActionContext.auth()} of the actions called. Errors reach clients as {@code isError} results with
 * public messages only. See {@link dev.baton.mcp.McpServer} for the mapping of each kind of action,
 * progress and cancellation.
 */
@NullMarked
package dev.baton.mcp;

import org.jspecify.annotations.NullMarked;
