/**
 * What model plugins and servers share to talk HTTP with the JDK client: calls with timeouts and
 * cancellation, a small SSE reader, and the mapping of provider errors to statuses. Not part of the
 * API: the module exports it only to Baton's own modules.
 */
@NullMarked
package dev.baton.internal.http;

import org.jspecify.annotations.NullMarked;
