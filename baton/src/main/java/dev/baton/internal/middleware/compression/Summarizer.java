package dev.baton.internal.middleware.compression;

import dev.baton.ai.CustomPart;
import dev.baton.ai.DataPart;
import dev.baton.ai.GenerationUsage;
import dev.baton.ai.MediaPart;
import dev.baton.ai.Message;
import dev.baton.ai.Model;
import dev.baton.ai.ModelRequest;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.Part;
import dev.baton.ai.ReasoningPart;
import dev.baton.ai.TextPart;
import dev.baton.ai.ToolRequestPart;
import dev.baton.ai.ToolResponsePart;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.StreamCallback;
import dev.baton.internal.ai.UsageListeners;
import dev.baton.middleware.compression.ContextCompression;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

/**
 * Has the configured model write a summary of older messages, and renders messages as the text it
 * reads: one block per message, {@code role: content}, with tool calls and results in brackets.
 * Stateless.
 */
final class Summarizer {
  private static final Logger log = LoggerFactory.getLogger(Summarizer.class);

  private Summarizer() {}

  /**
   * The summary of the previous summary (empty for none) and the messages, as the model wrote it,
   * stripped. The model is called directly, outside the tool loop, with the reference's config as
   * it is; its usage is reported to the context's listeners ({@link UsageListeners}).
   *
   * <p>A model call that fails is logged at WARN and yields an empty summary, as in Genkit: the
   * compression then goes on as when none was written, rather than failing a conversation that
   * dropping messages can still carry on. A cancelled call still fails, and so does a model that is
   * not registered, a configuration error that would otherwise hide behind drops for good.
   *
   * @throws BatonException the call's cancellation; {@code NOT_FOUND} for an unknown model
   */
  static String summarize(
      ActionContext context,
      CompressionSettings.Summarizer config,
      String previousSummary,
      List<Message> messages) {
    String rendering = render(previousSummary, messages);
    String template = config.prompt();
    String prompt =
        template.contains(ContextCompression.Summarizer.PLACEHOLDER)
            ? template.replace(ContextCompression.Summarizer.PLACEHOLDER, rendering)
            : template + "\n\n" + rendering;
    Model model = Model.lookup(context.registry(), config.model().name());
    ModelRequest request =
        ModelRequest.of(List.of(Message.user(prompt))).withConfig(config.model().config());
    ModelResponse response;
    try {
      response = model.run(context, request, StreamCallback.discard());
    } catch (RuntimeException e) {
      context.cancellation().throwIfCancelled();
      log.warn(
          "context compression: the summariser {} failed; going on without a summary",
          model.name(),
          e);
      return "";
    }
    GenerationUsage usage = response.usage();
    if (usage != null) {
      UsageListeners.report(context, model.name(), usage);
    }
    return response.text().strip();
  }

  /** The text the summariser reads: the previous summary first, then each message. */
  static String render(String previousSummary, List<Message> messages) {
    StringBuilder text = new StringBuilder();
    if (!previousSummary.isEmpty()) {
      text.append("summary of what came before: ").append(previousSummary).append("\n\n");
    }
    for (Message message : messages) {
      text.append(message.role().wireName()).append(':');
      for (Part part : message.content()) {
        String rendered = render(part);
        if (rendered != null) {
          text.append(' ').append(rendered);
        }
      }
      text.append("\n\n");
    }
    return text.toString().strip();
  }

  /** A part as text, or null for reasoning, which is the model's own scratch work. */
  private static @Nullable String render(Part part) {
    return switch (part) {
      case TextPart p -> p.text();
      case ReasoningPart p -> null;
      case ToolRequestPart p ->
          "[call to tool "
              + p.toolRequest().name()
              + " with input "
              + json(p.toolRequest().input())
              + "]";
      case ToolResponsePart p ->
          "[result of tool "
              + p.toolResponse().name()
              + ": "
              + ToolOutputs.render(p.toolResponse())
              + "]";
      case MediaPart p ->
          "[media"
              + (p.media().contentType() == null ? "" : " of type " + p.media().contentType())
              + "]";
      case DataPart p -> json(p.data());
      case CustomPart p -> json(p.custom());
    };
  }

  private static String json(@Nullable JsonNode value) {
    return value == null ? "null" : Json.write(value);
  }
}
