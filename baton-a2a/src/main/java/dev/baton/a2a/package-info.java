/**
 * The Agent2Agent protocol for Baton: Baton agents served as A2A agents, and A2A agents as Baton
 * sub-agents.
 *
 * <h2>Version</h2>
 *
 * <p>The module speaks A2A 0.3 ({@code protocolVersion} {@code 0.3.0}) over JSON-RPC 2.0 and HTTP.
 * The Java SDK ({@code io.github.a2asdk} 0.3.2.Final) declares 0.3.0; the JavaScript SDK
 * ({@code @a2a-js/sdk} 1.3.0) declares 1.0 and reaches 0.3 agents through its opt-in v0.3 layer
 * ({@code legacyCompat}). The Java SDK's spec types are Jackson 2 classes, so Baton keeps its own
 * records of the 0.3 JSON on its Jackson 3 mapper; the interop tests prove them against both SDKs'
 * clients. A2A 1.0 renames the methods ({@code SendMessage}, {@code GetTask}, ...), moves to
 * proto-JSON shapes (parts as a {@code oneof}, {@code TASK_STATE_*} enums, events without {@code
 * kind}) and lists interfaces with their versions on the card; a 1.0 binding would be a second
 * mapping beside the 0.3 one, over the same agent operations.
 *
 * <h2>Serving an agent</h2>
 *
 * <p>{@link dev.baton.a2a.A2aHandler} serves agents at {@code /a2a/<name>}: the agent card at
 * {@code /a2a/<name>/.well-known/agent-card.json}, and {@code message/send}, {@code
 * message/stream}, {@code tasks/get}, {@code tasks/cancel} and {@code tasks/resubscribe}.
 *
 * <ul>
 *   <li>A {@code contextId} is a Baton session; a task is a detached turn, its ID the ID of the
 *       snapshot the turn writes, and the turns that answer its questions.
 *   <li>A task is {@code working} while its turn runs, {@code completed} when it ends, {@code
 *       failed} when it fails (with the error's public message), {@code canceled} once aborted
 *       ({@code tasks/cancel} is Baton's abort, or ends a question), and {@code input-required}
 *       when the turn ended on an interrupt: the status message names each interrupt as a data part
 *       {@code {"interrupt": {"name", "input", "data"}}}, and the next message with that {@code
 *       taskId} answers it through the resume path (its one data part, or else its text, is the
 *       tool's answer); the task goes on under its ID, {@code working} again.
 *   <li>Parts map kind for kind: text, file (a Baton media part; inline bytes as a {@code data:}
 *       URL) and data. A task's artifacts are the Baton artifacts its turns created or changed,
 *       streamed as {@code artifact-update} events as they appear while the turn runs; a quiet
 *       stream sends a keep-alive comment every {@code keepAliveInterval} (15 s by default).
 *   <li>The handler's context providers authenticate requests as a {@code BatonHandler}'s do;
 *       another principal's task or context answers as unknown.
 *   <li>Errors are A2A's JSON-RPC codes (parse error, invalid request, method not found, invalid
 *       params, task not found, task not cancelable, ...), with public messages only.
 * </ul>
 *
 * <h2>Calling an A2A agent</h2>
 *
 * <p>{@link dev.baton.a2a.A2aAgents#define} reads an A2A agent's card and registers it as a Baton
 * {@link dev.baton.agent.Agent}, which the Agents middleware delegates to like any other:
 *
 * <ul>
 *   <li>a turn is {@code message/send}, blocking for a synchronous delegation, not blocking for a
 *       background one, whose running task is the pending snapshot; the task ID is {@code
 *       <agent>:<A2A task ID>};
 *   <li>a check reads the task with {@code tasks/get}, a wait follows its events with {@code
 *       tasks/resubscribe} when the card says the agent streams (reading the task every poll
 *       interval when not), an abort is {@code tasks/cancel}, and {@code continue_task} sends a new
 *       message in the task's context (answering the task when it is {@code input-required});
 *   <li>a {@code failed} task reports failed with the agent's message, an agent that cannot be
 *       reached {@code UNAVAILABLE}, a task the agent does not know {@code NOT_FOUND} (reported as
 *       {@code unknown});
 *   <li>the card's JSON-RPC interface is followed only on the origin the card was read from.
 * </ul>
 *
 * <p>The full mapping tables, the error tables and what 1.0 would change are in the repository's
 * {@code docs/a2a.md}.
 */
@NullMarked
package dev.baton.a2a;

import org.jspecify.annotations.NullMarked;
