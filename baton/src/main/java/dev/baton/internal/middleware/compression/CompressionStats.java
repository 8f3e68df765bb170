package dev.baton.internal.middleware.compression;

/**
 * What one compression did, recorded as {@code stats} on its boundary and reported in the final
 * response's {@code custom.contextCompression}. The field names are Baton's: Genkit leaves them
 * open. Numbers are ints so that the metadata reads back equal after a JSON round trip.
 *
 * @param trigger the trigger that fired: {@code "maxInputTokens"}, checked first, or {@code
 *     "maxMessages"}
 * @param tokensBefore the context measured before compressing
 * @param tokensAfter {@code tokensBefore} minus the estimated size of what was removed, plus that
 *     of what was inserted
 * @param messagesBefore the view's size before compressing
 * @param messagesAfter the view's size after
 * @param deduplicated tool responses newly replaced by the dedupe notice
 * @param truncated tool responses newly truncated
 * @param summarized messages folded into the summary
 * @param dropped messages dropped without a summary
 * @param preserveRecent the window the compaction kept, 0 when no compaction ran
 */
record CompressionStats(
    String trigger,
    int tokensBefore,
    int tokensAfter,
    int messagesBefore,
    int messagesAfter,
    int deduplicated,
    int truncated,
    int summarized,
    int dropped,
    int preserveRecent) {}
