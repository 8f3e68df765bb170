package dev.baton.middleware;

import dev.baton.ai.Message;
import dev.baton.ai.ModelRequest;
import dev.baton.ai.Part;
import dev.baton.ai.Role;
import dev.baton.ai.TextPart;
import dev.baton.internal.ai.Metadata;
import java.util.ArrayList;
import java.util.List;

/**
 * Injects a block of system text into a request under a marker, so that a middleware can put its
 * instructions in once and refresh them on later iterations without piling up copies. The request
 * is never changed; a changed copy is returned.
 */
final class SystemText {
  private SystemText() {}

  /**
   * The request with {@code text} in place: replacing the text part marked {@code marker} (or
   * leaving the request as it is when that part already says the same), else appended to the first
   * system message, else in a new system message at the front.
   */
  static ModelRequest inject(ModelRequest request, String marker, String text) {
    List<Message> messages = request.messages();
    for (int i = 0; i < messages.size(); i++) {
      List<Part> content = messages.get(i).content();
      for (int j = 0; j < content.size(); j++) {
        if (content.get(j) instanceof TextPart part && Metadata.isTrue(part.metadata(), marker)) {
          if (part.text().equals(text)) {
            return request;
          }
          List<Part> replaced = new ArrayList<>(content);
          replaced.set(j, new TextPart(text, part.metadata()));
          return request.withMessages(replace(messages, i, messages.get(i).withContent(replaced)));
        }
      }
    }
    Part block = new TextPart(text, Metadata.withFlag(null, marker));
    for (int i = 0; i < messages.size(); i++) {
      Message message = messages.get(i);
      if (message.role() == Role.SYSTEM) {
        List<Part> appended = new ArrayList<>(message.content());
        appended.add(block);
        return request.withMessages(replace(messages, i, message.withContent(appended)));
      }
    }
    List<Message> prepended = new ArrayList<>(messages.size() + 1);
    prepended.add(new Message(Role.SYSTEM, List.of(block)));
    prepended.addAll(messages);
    return request.withMessages(prepended);
  }

  private static List<Message> replace(List<Message> messages, int index, Message message) {
    List<Message> copy = new ArrayList<>(messages);
    copy.set(index, message);
    return copy;
  }
}
