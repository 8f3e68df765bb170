/** The A2A client: an A2A agent's card and JSON-RPC methods as a Baton agent's operations. */
@NullMarked
package dev.baton.a2a.internal.client;

import org.jspecify.annotations.NullMarked;
