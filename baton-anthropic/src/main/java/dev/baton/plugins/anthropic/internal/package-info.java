/**
 * The Messages API's wire, apart from how it is reached: the request body a {@link
 * dev.baton.ai.ModelRequest} becomes, the response (whole or streamed) read back as a {@link
 * dev.baton.ai.ModelResponse}, the {@code pause_turn} continuation and the errors a stream reports.
 * Nothing here knows an address, a key or an auth header, so that another way of reaching Claude
 * with the same body (a cloud platform's endpoint, with its own credentials) reuses it whole. Not
 * part of the API: the module does not export it.
 */
@NullMarked
package dev.baton.plugins.anthropic.internal;

import org.jspecify.annotations.NullMarked;
