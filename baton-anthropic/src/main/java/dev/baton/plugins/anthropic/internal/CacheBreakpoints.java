package dev.baton.plugins.anthropic.internal;

import dev.baton.ai.Message;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@code cache_control} breakpoints of one request body: those part, message and tool metadata
 * ask for, and those the {@code cacheControl} config object asks for ({@code system}, {@code tools}
 * and {@code lastMessage}, each with the config's {@code ttl}).
 *
 * <p>The API takes at most {@value #MAX} breakpoints and wants every {@code 1h} one before any
 * shorter one, in the order it reads the prompt: tools, system, messages. When more are asked for,
 * the config's are kept and the metadata's earliest are dropped, so that a conversation that marks
 * each turn keeps caching its latest ones; a {@code 1h} breakpoint after a shorter one (the default
 * is {@code 5m}) fails with {@code INVALID_ARGUMENT}. Thinking blocks never get one: the API
 * refuses {@code cache_control} on them, so a message's breakpoint goes on its last other block.
 *
 * <p>Not thread-safe: one per request body.
 */
final class CacheBreakpoints {
  /** The most breakpoints one request may carry. */
  static final int MAX = 4;

  private static final String LONG_TTL = "1h";

  private final ObjectNode config;
  private final Set<JsonNode> fromConfig = Collections.newSetFromMap(new IdentityHashMap<>());

  /**
   * @param config the {@code cacheControl} config object, or an empty one
   */
  CacheBreakpoints(ObjectNode config) {
    this.config = config;
  }

  /** The block, with the breakpoint its part's or tool's metadata asks for, if any. */
  static ObjectNode fromMetadata(ObjectNode block, @Nullable ObjectNode metadata) {
    JsonNode asked = metadata == null ? null : metadata.get("cacheControl");
    if (asked == null
        || asked.isNull()
        || (asked.isBoolean() && !asked.booleanValue())
        || !cacheable(block)) {
      return block;
    }
    block.set("cache_control", asked.isObject() ? asked.deepCopy() : ephemeral());
    return block;
  }

  /** The message's blocks, the last that can carry one given the breakpoint its metadata asks. */
  static ArrayNode fromMetadata(ArrayNode blocks, Message message) {
    ObjectNode last = lastCacheable(blocks);
    if (last != null && !last.has("cache_control")) {
      fromMetadata(last, message.metadata());
    }
    return blocks;
  }

  /** Puts the config's breakpoint after {@code blocks} when the config's {@code key} is true. */
  void fromConfig(String key, ArrayNode blocks) {
    ObjectNode last = lastCacheable(blocks);
    if (last == null || !config.path(key).asBoolean(false)) {
      return;
    }
    ObjectNode breakpoint = ephemeral();
    if (config.path("ttl").isString()) {
      breakpoint.put("ttl", config.path("ttl").stringValue());
    }
    last.set("cache_control", breakpoint);
    fromConfig.add(last);
  }

  /** Drops the breakpoints past {@value #MAX} and checks their order, as the class says. */
  void limit(ObjectNode body) {
    List<ObjectNode> marked = new ArrayList<>();
    body.path("tools").forEach(block -> addIfMarked(marked, block));
    body.path("system").forEach(block -> addIfMarked(marked, block));
    for (JsonNode message : body.path("messages")) {
      message.path("content").forEach(block -> addIfMarked(marked, block));
    }
    for (int i = 0; marked.size() > MAX; ) {
      if (fromConfig.contains(marked.get(i))) {
        i++;
      } else {
        marked.remove(i).remove("cache_control");
      }
    }
    boolean shorterSeen = false;
    for (ObjectNode block : marked) {
      boolean isLong = LONG_TTL.equals(block.path("cache_control").path("ttl").asString(""));
      if (isLong && shorterSeen) {
        throw BatonException.invalidArgument(
            "Claude wants every cache breakpoint with a 1h ttl before the shorter ones, in the"
                + " order tools, system, messages; this request has one after a shorter one");
      }
      shorterSeen |= !isLong;
    }
  }

  private static void addIfMarked(List<ObjectNode> marked, JsonNode block) {
    if (block instanceof ObjectNode object && object.has("cache_control")) {
      marked.add(object);
    }
  }

  private static @Nullable ObjectNode lastCacheable(ArrayNode blocks) {
    for (int i = blocks.size() - 1; i >= 0; i--) {
      if (blocks.get(i) instanceof ObjectNode block && cacheable(block)) {
        return block;
      }
    }
    return null;
  }

  private static boolean cacheable(ObjectNode block) {
    String type = block.path("type").asString("");
    return !type.equals("thinking") && !type.equals("redacted_thinking");
  }

  private static ObjectNode ephemeral() {
    return Json.object().put("type", "ephemeral");
  }
}
