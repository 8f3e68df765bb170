/**
 * The server's own implementation: routes, request bodies, SSE streams, error answers, the watch on
 * clients that go away, and graceful shutdown. Not part of the API, and not exported.
 */
@NullMarked
package dev.baton.server.internal;

import org.jspecify.annotations.NullMarked;
