/**
 * The server side of the A2A binding: the JSON-RPC endpoint and agent card of each served agent,
 * and {@link dev.baton.a2a.internal.server.TaskMapping}, the one place where A2A's tasks, contexts
 * and parts meet Baton's snapshots, sessions and parts. Not exported.
 */
@NullMarked
package dev.baton.a2a.internal.server;

import org.jspecify.annotations.NullMarked;
