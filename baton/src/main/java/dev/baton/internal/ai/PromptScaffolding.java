package dev.baton.internal.ai;

import dev.baton.ai.Message;
import dev.baton.core.ContextKey;
import java.util.ArrayList;
import java.util.List;

/**
 * How an agent's prompt tells its own messages from the session's history, as Genkit Go does: the
 * messages a prompt renders itself (system text, template messages, the prompt line) are tagged
 * {@value #PROMPT}, and never stored in the session. A prompt renders with tags only when its
 * context carries {@link #KEY}, which the prompt-agent turn sets.
 *
 * <p>A messages function cannot say which of the messages it returns are its own, so it receives
 * the history marked {@value #HISTORY}; whatever it returns with that mark is history (the mark is
 * removed), and everything else is scaffolding. A function that rebuilds a history message keeps it
 * in the session as long as it keeps the message's metadata.
 */
public final class PromptScaffolding {
  /** Marks a rendered message as the prompt's own: never stored in the session. */
  public static final String PROMPT = "_genkit_prompt";

  /** Marks a history message while a messages function renders. */
  public static final String HISTORY = "_genkit_history";

  /** Set on the context a prompt renders in when its scaffolding must be tagged. */
  public static final ContextKey<Boolean> KEY = ContextKey.of("baton.prompt.tag", Boolean.class);

  private PromptScaffolding() {}

  /** The history as a messages function sees it: each message marked {@value #HISTORY}. */
  public static List<Message> markHistory(List<Message> history) {
    List<Message> marked = new ArrayList<>(history.size());
    for (Message message : history) {
      marked.add(message.withFlag(HISTORY));
    }
    return marked;
  }

  /**
   * What a messages function returned, with its history marks removed and its own messages tagged
   * {@value #PROMPT}.
   */
  public static List<Message> tagFunctionOutput(List<Message> rendered) {
    List<Message> tagged = new ArrayList<>(rendered.size());
    for (Message message : rendered) {
      tagged.add(
          message.hasFlag(HISTORY)
              ? message.withMetadata(Metadata.without(message.metadata(), HISTORY))
              : message.withFlag(PROMPT));
    }
    return tagged;
  }
}
