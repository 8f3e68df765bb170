package dev.baton.internal.middleware.agents;

import dev.baton.ai.Message;
import dev.baton.ai.Part;
import dev.baton.ai.Role;
import dev.baton.ai.ToolRequest;
import dev.baton.ai.ToolRequestPart;
import dev.baton.ai.ToolResponse;
import dev.baton.ai.ToolResponsePart;
import dev.baton.internal.ai.Metadata;
import dev.baton.middleware.agents.Agents;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.node.StringNode;

/**
 * One interrupt per held sub-agent call. The resume API answers a tool request by name and ref, and
 * the orchestrator's model made one call for a sub-agent turn that may hold several; so the
 * orchestrator's interrupted message stands for that call with one part per held call ({@link
 * #split}): the call's name and input, the ref {@code <call ref>/<held call ref>}, and a wrapper
 * for that one held call. {@value #SPLIT_FROM} on each part names the call it stands for. A call
 * whose sub-agent holds a single call stays as it is.
 *
 * <p>Once answered, {@link #join} puts the model's own call back, with one tool response, so the
 * model and the saved history see only the call the model made. Refs compose: a sub-agent that
 * delegates further holds parts split at its own level, which the next level splits again.
 * Stateless.
 */
final class PerCallInterrupts {
  /** The key, on a part's metadata, of the ref of the call the part stands for. */
  static final String SPLIT_FROM = "baton.splitFrom";

  private static final String INTERRUPT = "interrupt";
  private static final String RESOLVED = "resolvedInterrupt";

  private PerCallInterrupts() {}

  /**
   * The interrupted message with each owned call whose wrapper holds several sub-agent calls split
   * into one part per held call; the message itself when there is none.
   *
   * @param owns whether a tool is one of the middleware's, whose wrappers it splits
   */
  static Message split(Message message, Predicate<String> owns) {
    if (message.toolRequests().stream().noneMatch(part -> splits(part, owns))) {
      return message;
    }
    List<Part> content = new ArrayList<>();
    for (Part part : message.content()) {
      if (!(part instanceof ToolRequestPart request) || !splits(request, owns)) {
        content.add(part);
        continue;
      }
      ToolRequest call = request.toolRequest();
      ObjectNode metadata = Objects.requireNonNull(request.metadata());
      JsonNode routing =
          Objects.requireNonNull(InterruptForwarding.routing(metadata.get(INTERRUPT)));
      int index = 0;
      for (JsonNode held : routing.path("interrupts")) {
        index++;
        String heldRef =
            Objects.requireNonNullElse(InterruptForwarding.heldRef(held), String.valueOf(index));
        ObjectNode one = metadata.deepCopy();
        one.set(INTERRUPT, InterruptForwarding.wrapper(routing, List.of(held)));
        one.put(SPLIT_FROM, call.ref());
        content.add(new ToolRequestPart(call.withRef(call.ref() + "/" + heldRef), one));
      }
    }
    return message.withContent(content);
  }

  private static boolean splits(ToolRequestPart part, Predicate<String> owns) {
    JsonNode routing =
        part.metadata() == null
            ? null
            : InterruptForwarding.routing(part.metadata().get(INTERRUPT));
    return routing != null
        && part.toolRequest().ref() != null
        && owns.test(part.toolRequest().name())
        && routing.path("interrupts").size() > 1;
  }

  /** The call the model made that a part stands for: the part's own call unless it was split. */
  static ToolRequest origin(ToolRequestPart part) {
    String from = splitFrom(part);
    return from != null ? part.toolRequest().withRef(from) : part.toolRequest();
  }

  /** The ref of the call a split part stands for, or null for a part that was not split. */
  private static @Nullable String splitFrom(ToolRequestPart part) {
    JsonNode from = part.metadata() == null ? null : part.metadata().get(SPLIT_FROM);
    return from instanceof StringNode ref ? ref.asString() : null;
  }

  /**
   * The conversation with the split parts of its last model message joined back into the calls the
   * model made, and their responses in the tool message after it into one response per call (the
   * first one's, which the caller replaces with the call's result). A joined call keeps its
   * resolved wrapper whole, as a call that was never split would.
   */
  static List<Message> join(List<Message> messages) {
    int last = messages.size() - 1;
    if (last < 1
        || messages.get(last).role() != Role.TOOL
        || messages.get(last - 1).role() != Role.MODEL) {
      return messages;
    }
    Message model = messages.get(last - 1);
    Map<CallKey, String> origins = new HashMap<>();
    Map<CallKey, List<ToolRequestPart>> splits = new LinkedHashMap<>();
    for (ToolRequestPart part : model.toolRequests()) {
      String from = splitFrom(part);
      if (from != null) {
        origins.put(CallKey.of(part.toolRequest()), from);
        splits
            .computeIfAbsent(new CallKey(part.toolRequest().name(), from), k -> new ArrayList<>())
            .add(part);
      }
    }
    if (splits.isEmpty()) {
      return messages;
    }
    List<Message> joined = new ArrayList<>(messages.subList(0, last - 1));
    joined.add(joinCalls(model, splits));
    joined.add(joinResponses(messages.get(last), origins));
    return joined;
  }

  private static Message joinCalls(Message model, Map<CallKey, List<ToolRequestPart>> splits) {
    List<Part> content = new ArrayList<>();
    Set<CallKey> joined = new HashSet<>();
    for (Part part : model.content()) {
      if (!(part instanceof ToolRequestPart request) || splitFrom(request) == null) {
        content.add(part);
        continue;
      }
      CallKey key = CallKey.of(origin(request));
      if (joined.add(key)) {
        content.add(
            new ToolRequestPart(
                origin(request), joinedMetadata(Objects.requireNonNull(splits.get(key)))));
      }
    }
    return model.withContent(content);
  }

  /** The first part's metadata, with the wrapper of every part's held call in one. */
  private static @Nullable ObjectNode joinedMetadata(List<ToolRequestPart> parts) {
    ObjectNode metadata = Metadata.without(parts.get(0).metadata(), SPLIT_FROM);
    for (String key : List.of(INTERRUPT, RESOLVED)) {
      JsonNode first = metadata == null ? null : InterruptForwarding.routing(metadata.get(key));
      if (first == null) {
        continue;
      }
      List<JsonNode> calls = new ArrayList<>();
      for (ToolRequestPart part : parts) {
        Objects.requireNonNull(part.metadata())
            .path(key)
            .path(Agents.SUB_AGENT)
            .path("interrupts")
            .forEach(calls::add);
      }
      metadata = Metadata.with(metadata, key, InterruptForwarding.wrapper(first, calls));
    }
    return metadata;
  }

  private static Message joinResponses(Message tool, Map<CallKey, String> origins) {
    List<Part> content = new ArrayList<>();
    Set<CallKey> answered = new HashSet<>();
    for (Part part : tool.content()) {
      if (!(part instanceof ToolResponsePart responsePart)) {
        content.add(part);
        continue;
      }
      ToolResponse response = responsePart.toolResponse();
      String origin = origins.get(CallKey.of(response));
      if (origin == null) {
        content.add(part);
      } else if (answered.add(new CallKey(response.name(), origin))) {
        content.add(Part.toolResponse(response.name(), origin, response.output()));
      }
    }
    return tool.withContent(content);
  }
}
