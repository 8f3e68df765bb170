package dev.baton.internal.ai;

import dev.baton.ai.Message;
import dev.baton.ai.Role;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** Helpers for reading a conversation's messages. Stateless. */
public final class Messages {
  private Messages() {}

  /** The index of the last model message, skipping trailing messages of other roles; -1 if none. */
  public static int lastModelIndex(List<Message> messages) {
    for (int i = messages.size() - 1; i >= 0; i--) {
      if (messages.get(i).role() == Role.MODEL) {
        return i;
      }
    }
    return -1;
  }

  /** The last model message, skipping trailing messages of other roles, or null if none. */
  public static @Nullable Message lastModel(List<Message> messages) {
    int last = lastModelIndex(messages);
    return last < 0 ? null : messages.get(last);
  }
}
