package dev.baton.internal.middleware.agents;

import dev.baton.ai.Message;
import dev.baton.ai.ModelRequest;
import dev.baton.ai.Part;
import dev.baton.ai.Role;
import dev.baton.ai.TextPart;
import dev.baton.internal.ai.Metadata;
import dev.baton.internal.core.SharedList;
import java.util.ArrayList;
import java.util.List;

/**
 * Injects a block of system text into a request under a marker, so that a middleware can put its
 * instructions in once and refresh them on later iterations without piling up copies. The request
 * is never changed; a changed copy is returned.
 */
public final class SystemText {
  private SystemText() {}

  /** A block of system text under a marker, to build once and inject on every call. */
  public static TextPart block(String marker, String text) {
    return new TextPart(text, Metadata.withFlag(null, marker));
  }

  /**
   * The request with {@code block} (see {@link #block}) in place: replacing the text part marked
   * {@code marker} (or leaving the request as it is when that part already says the same), else
   * appended to the first system message, else in a new system message at the front.
   */
  public static ModelRequest inject(ModelRequest request, String marker, TextPart block) {
    List<Message> messages = request.messages();
    for (int i = 0; i < messages.size(); i++) {
      List<Part> content = messages.get(i).content();
      for (int j = 0; j < content.size(); j++) {
        if (content.get(j) instanceof TextPart part && Metadata.isTrue(part.metadata(), marker)) {
          if (part.text().equals(block.text())) {
            return request;
          }
          List<Part> replaced = new ArrayList<>(content);
          replaced.set(j, new TextPart(block.text(), part.metadata()));
          return request.withMessages(
              SharedList.with(messages, i, messages.get(i).withContent(replaced)));
        }
      }
    }
    for (int i = 0; i < messages.size(); i++) {
      Message message = messages.get(i);
      if (message.role() == Role.SYSTEM) {
        List<Part> appended = new ArrayList<>(message.content().size() + 1);
        appended.addAll(message.content());
        appended.add(block);
        return request.withMessages(SharedList.with(messages, i, message.withContent(appended)));
      }
    }
    return request.withMessages(
        SharedList.<Message>builder(messages.size() + 1)
            .add(new Message(Role.SYSTEM, List.of(block)))
            .addAll(messages)
            .build());
  }
}
