package dev.baton.internal.middleware.compression;

import dev.baton.ai.Message;
import dev.baton.core.Json;
import dev.baton.internal.ai.Metadata;
import dev.baton.middleware.compression.ContextCompression;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads and writes what {@link ContextCompression} records under {@code
 * metadata.contextCompression} of messages and tool response parts. Every write returns a new
 * message or metadata object; what it reads from is never changed.
 */
final class CompressionMetadata {
  static final String KEY = "contextCompression";
  static final String INPUT_TOKENS = "inputTokens";
  static final String SUMMARY = "summary";
  static final String STATS = "stats";
  static final String ANCHOR_USER = "anchorUser";
  static final String TRUNCATION_NOTICE = "truncationNotice";
  static final String TRUNCATED = "truncated";
  static final String CAPPED = "capped";
  static final String DEDUPLICATED = "deduplicated";
  static final String MAX_CHARS = "maxChars";
  static final String RAW_OUTPUT = "rawOutput";
  static final String NOTICE = "notice";

  private CompressionMetadata() {}

  /** The {@code contextCompression} object of some metadata, or null. */
  static @Nullable ObjectNode of(@Nullable ObjectNode metadata) {
    return metadata != null && metadata.get(KEY) instanceof ObjectNode record ? record : null;
  }

  /** The input tokens recorded on a model message, or -1. */
  static long inputTokens(@Nullable ObjectNode record) {
    return record != null && record.path(INPUT_TOKENS).canConvertToLong()
        ? record.path(INPUT_TOKENS).asLong()
        : -1;
  }

  /** The message with {@code inputTokens} recorded, keeping the rest of its metadata. */
  static Message withInputTokens(Message message, int tokens) {
    ObjectNode metadata = message.metadata();
    ObjectNode record = copyOf(of(metadata));
    record.put(INPUT_TOKENS, tokens);
    return message.withMetadata(Metadata.with(metadata, KEY, record));
  }

  /**
   * What a boundary records.
   *
   * @param summary the summary, "" when messages were dropped without one
   * @param anchorUser whether the view keeps the user message that started the current tool loop:
   *     the newest user message up to the boundary that is not scaffolding
   * @param truncationNotice the notice of a drop: null for the default, "" for none
   */
  record Boundary(String summary, boolean anchorUser, @Nullable String truncationNotice) {

    /** The text of the message the view shows for what the boundary covers, or null for none. */
    @Nullable String insertedText() {
      if (!summary.isEmpty()) {
        return CompressedHistory.SUMMARY_INTRO + summary;
      }
      if (truncationNotice == null) {
        return ContextCompression.DEFAULT_TRUNCATION_NOTICE;
      }
      return truncationNotice.isEmpty() ? null : truncationNotice;
    }
  }

  /** The boundary a record marks, or null when it marks none. */
  static @Nullable Boundary boundary(@Nullable ObjectNode record) {
    if (record == null || !record.path(SUMMARY).isString()) {
      return null;
    }
    JsonNode notice = record.path(TRUNCATION_NOTICE);
    return new Boundary(
        record.path(SUMMARY).asString(),
        record.path(ANCHOR_USER).asBoolean(false),
        notice.isString() ? notice.asString() : null);
  }

  /**
   * The message marked as a boundary, keeping the rest of its metadata; {@code stats} may be left
   * for a later call to fill in.
   */
  static Message withBoundary(
      Message message, Boundary boundary, @Nullable CompressionStats stats) {
    ObjectNode metadata = message.metadata();
    ObjectNode record = copyOf(of(metadata));
    record.put(SUMMARY, boundary.summary());
    if (stats != null) {
      record.set(STATS, Json.toTree(stats));
    }
    if (boundary.anchorUser()) {
      record.put(ANCHOR_USER, true);
    }
    if (boundary.truncationNotice() != null) {
      record.put(TRUNCATION_NOTICE, boundary.truncationNotice());
    }
    return message.withMetadata(Metadata.with(metadata, KEY, record));
  }

  /**
   * The limit recorded on a tool response part. A part can be capped and later truncated; the
   * smaller limit applies, and deduplication overrides both.
   *
   * @param maxChars the character limit, 0 for none
   * @param raw whether the part's output is still the original, for the view to limit
   * @param notice a custom dedupe notice, or null for the default
   */
  record Limit(
      boolean deduplicated,
      boolean truncated,
      boolean capped,
      int maxChars,
      boolean raw,
      @Nullable String notice) {
    static final Limit NONE = new Limit(false, false, false, 0, false, null);

    /** Whether the part's output already holds at most {@code chars} characters in the view. */
    boolean within(int chars) {
      return deduplicated || (maxChars > 0 && maxChars <= chars);
    }

    Limit cappedAt(int chars) {
      return new Limit(deduplicated, truncated, true, tighter(chars), true, notice);
    }

    Limit truncatedAt(int chars) {
      return new Limit(deduplicated, true, capped, tighter(chars), true, notice);
    }

    Limit deduplicatedWith(@Nullable String customNotice) {
      return new Limit(true, truncated, capped, maxChars, true, customNotice);
    }

    /** This limit as applied: the output the view shows is no longer the original. */
    Limit applied() {
      return new Limit(deduplicated, truncated, capped, maxChars, false, notice);
    }

    private int tighter(int chars) {
      return maxChars > 0 ? Math.min(maxChars, chars) : chars;
    }
  }

  /** The limit recorded in a part's metadata, or {@link Limit#NONE}. */
  static Limit limit(@Nullable ObjectNode partMetadata) {
    ObjectNode record = of(partMetadata);
    if (record == null) {
      return Limit.NONE;
    }
    JsonNode notice = record.path(NOTICE);
    return new Limit(
        record.path(DEDUPLICATED).asBoolean(false),
        record.path(TRUNCATED).asBoolean(false),
        record.path(CAPPED).asBoolean(false),
        record.path(MAX_CHARS).asInt(0),
        record.path(RAW_OUTPUT).asBoolean(false),
        notice.isString() ? notice.asString() : null);
  }

  /** A copy of a part's metadata with {@code limit} recorded in place of any earlier one. */
  static ObjectNode withLimit(@Nullable ObjectNode partMetadata, Limit limit) {
    ObjectNode metadata = partMetadata == null ? Json.object() : partMetadata.deepCopy();
    ObjectNode record =
        metadata.get(KEY) instanceof ObjectNode existing ? existing : metadata.putObject(KEY);
    for (String flag :
        new String[] {DEDUPLICATED, TRUNCATED, CAPPED, MAX_CHARS, RAW_OUTPUT, NOTICE}) {
      record.remove(flag);
    }
    putFlag(record, TRUNCATED, limit.truncated());
    putFlag(record, CAPPED, limit.capped());
    putFlag(record, DEDUPLICATED, limit.deduplicated());
    if (limit.maxChars() > 0) {
      record.put(MAX_CHARS, limit.maxChars());
    }
    putFlag(record, RAW_OUTPUT, limit.raw());
    if (limit.notice() != null) {
      record.put(NOTICE, limit.notice());
    }
    return metadata;
  }

  private static void putFlag(ObjectNode record, String flag, boolean value) {
    if (value) {
      record.put(flag, true);
    }
  }

  private static ObjectNode copyOf(@Nullable ObjectNode record) {
    return record == null ? Json.object() : record.deepCopy();
  }
}
