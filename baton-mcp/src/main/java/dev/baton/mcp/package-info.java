/**
 * The Model Context Protocol for Baton, on the official MCP Java SDK (protocol version 2025-11-25
 * and earlier, as the SDK negotiates).
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
 *       InlinePrompt.builder().model(...))}, whose model, config, tools and other options it keeps
 *       and whose messages the server's replace.
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
 */
@NullMarked
package dev.baton.mcp;

import org.jspecify.annotations.NullMarked;
