package dev.baton.internal.middleware.compression;

import dev.baton.ai.Message;
import dev.baton.ai.Part;
import dev.baton.ai.Role;
import dev.baton.ai.ToolResponse;
import dev.baton.ai.ToolResponsePart;
import dev.baton.internal.ai.PromptScaffolding;
import dev.baton.internal.core.SharedList;
import dev.baton.middleware.compression.ContextCompression;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * A conversation as {@link ContextCompression} reads it: its messages with the compression recorded
 * so far, where its newest boundary is, and the view a model is sent.
 *
 * <p>The view is the leading system messages, the protected messages up to the boundary, the
 * message standing in for what the boundary covers (the summary or the drop notice, if any), the
 * anchored user message, then the tail: every message after the boundary. Each message in view
 * shows its tool responses under their recorded limits.
 *
 * <p>Working state for one iteration of one call: not thread-safe. The list it is made from is
 * never changed; {@link #replace} changes only this object's copy.
 */
public final class CompressedHistory {
  static final String SUMMARY_INTRO =
      "Summary of the earlier conversation, which was compressed to fit the context window:\n\n";

  /**
   * StructuredOutput appends output-format instructions to a user message as a part with this
   * purpose.
   */
  private static final String PURPOSE = "purpose";

  private static final String OUTPUT_PURPOSE = "output";
  private static final byte UNKNOWN = 0;
  private static final byte PROTECTED = 1;
  private static final byte UNPROTECTED = 2;

  private final Message[] messages;
  private final @Nullable Message[] views;
  private final long[] chars;
  private final byte[] protection;
  // The newest message carrying output-format instructions, or -1.
  private final int outputInstructions;
  private int systemEnd;
  private int boundary;
  private CompressionMetadata.@Nullable Boundary record;
  private int[] keptBefore = new int[0];
  private int anchor;

  private CompressedHistory(Message[] messages) {
    this.messages = messages;
    this.views = new Message[messages.length];
    this.chars = new long[messages.length];
    Arrays.fill(chars, -1);
    this.protection = new byte[messages.length];
    int newest = messages.length - 1;
    while (newest >= 0 && !carriesOutputInstructions(messages[newest])) {
      newest--;
    }
    this.outputInstructions = newest;
    locate();
  }

  public static CompressedHistory of(List<Message> history) {
    return new CompressedHistory(history.toArray(new Message[0]));
  }

  /**
   * Whether a message carries injected output-format instructions: StructuredOutput appends them to
   * the newest user message of every generate call, so a conversation carried forward holds one
   * such message per call, and only the newest is protected.
   */
  private static boolean carriesOutputInstructions(Message message) {
    if (message.role() != Role.USER) {
      return false;
    }
    for (Part part : message.content()) {
      if (isOutputInstructions(part)) {
        return true;
      }
    }
    return false;
  }

  private static boolean isOutputInstructions(Part part) {
    ObjectNode metadata = part.metadata();
    return metadata != null
        && metadata.path(PURPOSE).isString()
        && OUTPUT_PURPOSE.equals(metadata.path(PURPOSE).asString());
  }

  /**
   * The message without its output-format instructions, as the summariser reads it: they tell the
   * model how to answer, not what was said.
   */
  static Message withoutOutputInstructions(Message message) {
    if (!carriesOutputInstructions(message)) {
      return message;
    }
    return message.withContent(
        message.content().stream().filter(part -> !isOutputInstructions(part)).toList());
  }

  /** The message as the view shows it: each tool response under its recorded limit. */
  static Message viewOf(Message message) {
    List<Part> content = message.content();
    Part[] shown = null;
    for (int i = 0; i < content.size(); i++) {
      if (content.get(i) instanceof ToolResponsePart part) {
        ObjectNode metadata = part.metadata();
        CompressionMetadata.Limit limit = CompressionMetadata.limit(metadata);
        if (limit.raw()) {
          if (shown == null) {
            shown = content.toArray(new Part[0]);
          }
          shown[i] =
              new ToolResponsePart(
                  limited(part.toolResponse(), limit),
                  CompressionMetadata.withLimit(metadata, limit.applied()));
        }
      }
    }
    return shown == null ? message : message.withContent(Arrays.asList(shown));
  }

  private static ToolResponse limited(ToolResponse response, CompressionMetadata.Limit limit) {
    if (limit.deduplicated()) {
      return ToolOutputs.replaced(
          response,
          limit.notice() == null ? ContextCompression.Dedupe.DEFAULT_NOTICE : limit.notice());
    }
    return limit.maxChars() > 0 ? ToolOutputs.truncated(response, limit.maxChars()) : response;
  }

  /** Finds the leading system messages, the newest boundary, and what the view keeps before it. */
  private void locate() {
    int n = messages.length;
    systemEnd = 0;
    while (systemEnd < n && messages[systemEnd].role() == Role.SYSTEM) {
      systemEnd++;
    }
    boundary = -1;
    record = null;
    for (int i = n - 1; i >= systemEnd && record == null; i--) {
      record = CompressionMetadata.boundary(CompressionMetadata.of(messages[i].metadata()));
      if (record != null) {
        boundary = i;
      }
    }
    anchor = -1;
    if (record == null) {
      keptBefore = new int[0];
      return;
    }
    int[] kept = new int[boundary - systemEnd + 1];
    int count = 0;
    int user = -1;
    for (int i = systemEnd; i <= boundary; i++) {
      if (isProtected(i)) {
        kept[count++] = i;
      }
      if (isUserTurn(messages[i])) {
        user = i;
      }
    }
    keptBefore = Arrays.copyOf(kept, count);
    if (record.anchorUser() && user >= 0 && !isProtected(user)) {
      anchor = user;
    }
  }

  /**
   * Whether a message is one the user sent, as opposed to a prompt's scaffolding. The newest one
   * started the current tool loop.
   */
  static boolean isUserTurn(Message message) {
    return message.role() == Role.USER && !message.hasFlag(PromptScaffolding.PROMPT);
  }

  int size() {
    return messages.length;
  }

  Message message(int index) {
    return messages[index];
  }

  /** Replaces a message in the tail, as recorded, with one carrying more metadata. */
  void replace(int index, Message message) {
    messages[index] = message;
    views[index] = null;
    chars[index] = -1;
  }

  /** Replaces a message with its copy marked as the newest boundary, and finds the new view. */
  void markBoundary(int index, Message boundaryMessage) {
    replace(index, boundaryMessage);
    locate();
  }

  /** The message at {@code index} as the view shows it. */
  Message viewAt(int index) {
    Message view = views[index];
    if (view == null) {
      view = viewOf(messages[index]);
      views[index] = view;
    }
    return view;
  }

  /** The estimated characters of the message at {@code index} as the view shows it. */
  long charsAt(int index) {
    if (chars[index] < 0) {
      chars[index] = TokenEstimator.chars(viewAt(index));
    }
    return chars[index];
  }

  /** The estimated characters of the whole view. */
  long viewChars() {
    long total = 0;
    for (int i = 0; i < systemEnd; i++) {
      total += charsAt(i);
    }
    for (int i : keptBefore) {
      total += charsAt(i);
    }
    Message inserted = inserted();
    if (inserted != null) {
      total += TokenEstimator.chars(inserted);
    }
    if (anchor >= 0) {
      total += charsAt(anchor);
    }
    for (int i = tailStart(); i < messages.length; i++) {
      total += charsAt(i);
    }
    return total;
  }

  /**
   * Whether a message is never summarised away or dropped: a prompt agent's scaffolding, or the
   * newest message carrying output-format instructions.
   */
  boolean isProtected(int index) {
    if (protection[index] == UNKNOWN) {
      protection[index] =
          messages[index].hasFlag(PromptScaffolding.PROMPT) || index == outputInstructions
              ? PROTECTED
              : UNPROTECTED;
    }
    return protection[index] == PROTECTED;
  }

  /** Whether the message at {@code index} is the protected one carrying output instructions. */
  boolean isOutputInstructions(int index) {
    return index == outputInstructions;
  }

  int systemEnd() {
    return systemEnd;
  }

  /** The first message after the newest boundary (or after the system messages without one). */
  int tailStart() {
    return boundary < 0 ? systemEnd : boundary + 1;
  }

  /** The newest boundary's record, or null. */
  CompressionMetadata.@Nullable Boundary boundary() {
    return record;
  }

  /** The protected messages up to the newest boundary, in order. */
  int[] keptBefore() {
    return keptBefore.clone();
  }

  /** The message standing in for what the newest boundary covers, or null for none. */
  @Nullable Message inserted() {
    String text = record == null ? null : record.insertedText();
    return text == null ? null : Message.user(text);
  }

  int viewSize() {
    return systemEnd
        + keptBefore.length
        + (inserted() == null ? 0 : 1)
        + (anchor < 0 ? 0 : 1)
        + messages.length
        - tailStart();
  }

  /** The view a model is sent. */
  public List<Message> view() {
    List<Message> view = new ArrayList<>(viewSize());
    for (int i = 0; i < systemEnd; i++) {
      view.add(viewAt(i));
    }
    for (int i : keptBefore) {
      view.add(viewAt(i));
    }
    Message inserted = inserted();
    if (inserted != null) {
      view.add(inserted);
    }
    if (anchor >= 0) {
      view.add(viewAt(anchor));
    }
    for (int i = tailStart(); i < messages.length; i++) {
      view.add(viewAt(i));
    }
    return SharedList.copyOf(view);
  }
}
