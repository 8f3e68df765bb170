/**
 * The server's Jetty binding of the wire protocol: the Jetty transport, the watch on clients that
 * go away, and the header-cache check. The protocol itself is in {@code .protocol}. Not part of the
 * API.
 */
@NullMarked
package dev.baton.server.internal;

import org.jspecify.annotations.NullMarked;
