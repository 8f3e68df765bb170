/**
 * What model plugins share to talk to providers over HTTP with the JDK client: calls with timeouts
 * and cancellation, a small SSE reader, and the mapping of provider errors to statuses.
 */
@NullMarked
package dev.baton.core.http;

import org.jspecify.annotations.NullMarked;
