/**
 * The task console: a read-mostly web page over the agents a protocol serves, and the JSON API it
 * reads (sessions, snapshot chains, delegation trees, live status events, abort). Written on the
 * protocol's {@code Transport}, so every binding serves it. See {@code docs/console.md}.
 */
@NullMarked
package dev.baton.server.internal.protocol.console;

import org.jspecify.annotations.NullMarked;
