/**
 * Genkit's wire protocol, once for every server: routes, request envelopes, auth contexts, error
 * answers, SSE framing and keep-alives, detach rules and graceful shutdown, over a {@link
 * dev.baton.server.internal.protocol.Transport} that each server binding (Jetty's core handler, the
 * servlet) implements. Imports neither Jetty nor the servlet API. Not part of the API.
 */
@NullMarked
package dev.baton.server.internal.protocol;

import org.jspecify.annotations.NullMarked;
