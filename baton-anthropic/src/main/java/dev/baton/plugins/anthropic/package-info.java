/**
 * Claude models for Baton through the Anthropic Messages API, over the JDK {@link
 * java.net.http.HttpClient} and Baton's Jackson 3 mapper.
 *
 * <pre>{@code
 * Baton baton = Baton.builder()
 *     .plugin(new Anthropic())                       // key from ANTHROPIC_API_KEY
 *     .build();
 *
 * GenerateResponse answer = baton.generate(GenerateOptions.builder()
 *     .model("anthropic/claude-sonnet-4-5")          // any Messages API model name
 *     .config(Map.of("maxOutputTokens", 4096,
 *                    "thinking", Map.of("budgetTokens", 2048),
 *                    "cacheControl", Map.of("system", true, "tools", true)))
 *     .prompt("Why is the sky blue?")
 *     .build());
 *
 * // Explicit settings:
 * Anthropic plugin = Anthropic.builder()
 *     .apiKey(key)
 *     .baseUrl(URI.create("https://gateway.example.com/anthropic"))  // a proxy or gateway
 *     .header("anthropic-beta", "some-beta-2025-01-01")
 *     .maxTokens(8192)                       // max_tokens when the config sets none
 *     .timeout(Duration.ofMinutes(20))       // whole call; default 10 minutes
 *     .build();
 * }</pre>
 *
 * <p>Why not Anthropic's Java SDK: it brings Jackson 2, OkHttp and the Kotlin standard library onto
 * the application's class path and module path, beside the Jackson 3 that Baton uses, and its own
 * types would stand between Baton's parts and the wire. The Messages API is a small JSON API over
 * HTTP and SSE, which the JDK client and the HTTP and SSE code Baton's other model plugins share
 * handle with the same timeouts, cancellation and error mapping as theirs.
 *
 * <p>What maps how:
 *
 * <ul>
 *   <li>System messages are the {@code system} prompt; user, model and tool messages are {@code
 *       user}, {@code assistant} and {@code tool_result} turns. Images (by URL or base64 {@code
 *       data:} URL) are {@code image} blocks and PDFs {@code document} blocks.
 *   <li>Config keys: {@code maxOutputTokens} ({@code max_tokens}, which the API requires: unless
 *       set, the builder's {@code maxTokens}, else a default per model), {@code temperature},
 *       {@code topP}, {@code topK}, {@code stopSequences}, {@code thinking} ({@code
 *       {"budgetTokens": n}} turns extended thinking on), {@code toolChoice} ({@code "auto"},
 *       {@code "any"}, {@code "none"} or a tool's name to force it; the request's own tool choice
 *       maps {@code required} to {@code any}), {@code parallelToolCalls} ({@code false} allows one
 *       tool call per turn), {@code cacheControl} ({@code {"system": true, "tools": true,
 *       "lastMessage": true, "ttl": "1h"}}: where to put cache breakpoints), and any of the API's
 *       own fields under their own names ({@code metadata}, {@code service_tier}, ...).
 *   <li>Prompt caching: besides the config, {@code "cacheControl": true} (or the {@code
 *       cache_control} object to send) in a part's, a message's or a tool definition's metadata
 *       puts a breakpoint after it. The API takes at most four breakpoints: past four, those of the
 *       config stay and the earliest of the metadata's are dropped; a {@code 1h} breakpoint after a
 *       shorter one (tools, then system, then messages) is {@code INVALID_ARGUMENT}. Thinking
 *       blocks never carry one. Usage counts cache writes and reads as input tokens, reads as
 *       cached input tokens, and writes as {@code custom.cacheCreationInputTokens}.
 *   <li>Thinking comes back as reasoning parts whose metadata holds the block's {@code signature}
 *       (or, for redacted thinking, its encrypted {@code redactedThinking} data); sent back
 *       unchanged, as a tool loop does, they become the blocks the API requires again. Reasoning
 *       without either (another provider's) is not sent. Output tokens include thinking: the API
 *       does not count it apart.
 *   <li>JSON output with a schema is a structured output ({@code output_config.format}), every
 *       object of the schema closed with {@code additionalProperties: false} unless it says
 *       otherwise.
 *   <li>Stop reasons: {@code end_turn}, {@code stop_sequence} and {@code tool_use} are {@code
 *       stop}; {@code max_tokens} and {@code model_context_window_exceeded} are {@code length};
 *       {@code refusal} is {@code blocked}; {@code pause_turn} is continued by the plugin (up to 8
 *       times) and the rounds' content and usage come back as one response.
 *   <li>Server tools' blocks (a web search's call and results) come back as custom parts {@code
 *       {"anthropic": <block>}} and are sent back as they came.
 * </ul>
 *
 * <p>Errors keep the API's message: HTTP 400 and 413 are {@code INVALID_ARGUMENT}, 401 {@code
 * UNAUTHENTICATED}, 403 {@code PERMISSION_DENIED}, 404 {@code NOT_FOUND}, 429 {@code
 * RESOURCE_EXHAUSTED} with {@code details.retryAfterSeconds} from {@code retry-after}, which the
 * {@code Retry} middleware waits for. 500 ({@code api_error}), 529 ({@code overloaded_error}) and
 * every other 5xx are {@code UNAVAILABLE}, which {@code Retry} retries, as Anthropic's own SDKs
 * retry them. An {@code error} event in a stream maps its {@code type} the same way; a stream that
 * breaks off, or ends before {@code message_stop}, is {@code UNAVAILABLE}. Either way the chunks
 * already streamed have been passed on. The key is sent only in its header: no message names it. A
 * call that outlives its timeout, or whose stream stalls longer than the idle timeout, is {@code
 * DEADLINE_EXCEEDED}; cancelling the context's {@link dev.baton.core.Cancellation}, or interrupting
 * the calling thread, aborts the HTTP call with {@code CANCELLED}.
 *
 * <p>Not supported: the Files API ({@code file_id} sources), citations (text comes back without
 * them), the Batches and token counting endpoints, and listing models.
 */
@NullMarked
package dev.baton.plugins.anthropic;

import org.jspecify.annotations.NullMarked;
