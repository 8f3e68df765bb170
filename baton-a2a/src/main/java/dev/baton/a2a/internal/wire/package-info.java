/**
 * A2A 0.3's JSON shapes as records: the agent card, messages and their parts, tasks, their statuses
 * and artifacts, the streaming events and the JSON-RPC envelopes. Field names are the
 * specification's; absent optional fields are left out of the JSON. Not exported.
 */
@NullMarked
package dev.baton.a2a.internal.wire;

import org.jspecify.annotations.NullMarked;
