package dev.baton.agent;

import dev.baton.core.StreamCallback;

/**
 * A stream callback that goes on receiving a run's chunks after the run detaches, in the process
 * that started it: an in-process observer of background work, such as a server telling its own
 * client what a task it started has produced so far. A plain callback receives nothing once the run
 * detaches, and neither does a client over the wire.
 *
 * <p>Pass it to {@link Agent#run(dev.baton.core.ActionContext, AgentInput, AgentInit,
 * StreamCallback)}. Only a local agent's detached work streams to it; a remote or bridged agent's
 * runs on its server, so the callback receives what the call itself streams, then its end.
 *
 * <p>After the detach, chunks arrive on the work's own threads, as the agent's stream transform
 * shapes them, possibly from several threads at once (parallel tool calls): the callback must be
 * thread-safe and quick, and must not block. One that throws receives nothing more, and the work
 * goes on.
 */
public interface BackgroundStream extends StreamCallback<AgentStreamChunk> {

  /**
   * No chunk comes after this: the run has ended, and, for detached work, its snapshot is final.
   * Called exactly once per run, also when the run fails or its detach is refused.
   */
  void onEnd();
}
