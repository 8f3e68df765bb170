/**
 * Gemini API models for Baton, over the JDK {@link java.net.http.HttpClient} (no vendor SDK).
 *
 * <pre>{@code
 * Baton baton = Baton.builder()
 *     .plugin(new GoogleAI())              // key from GEMINI_API_KEY or GOOGLE_API_KEY
 *     .build();
 *
 * GenerateResponse answer = baton.generate(GenerateOptions.builder()
 *     .model("googleai/gemini-2.5-flash")  // any Gemini model name
 *     .config(Map.of("temperature", 0.2,
 *                    "thinkingConfig", Map.of("includeThoughts", true)))
 *     .prompt("Why is the sky blue?")
 *     .build());
 *
 * // Explicit settings:
 * GoogleAI plugin = GoogleAI.builder()
 *     .apiKey(key)
 *     .apiVersion("v1")                    // default v1beta
 *     .timeout(Duration.ofMinutes(20))     // whole call; default 10 minutes
 *     .idleTimeout(Duration.ofMinutes(5))  // silence mid-answer; default 2 minutes
 *     .build();
 * }</pre>
 *
 * <p>Config keys are Gemini's own {@code generationConfig} names: {@code temperature}, {@code
 * maxOutputTokens}, {@code topP}, {@code topK}, {@code stopSequences}, {@code thinkingConfig}
 * ({@code thinkingBudget}, {@code thinkingLevel}, {@code includeThoughts}) and any other; {@code
 * safetySettings} and {@code cachedContent} go to the request itself. Thought summaries come back
 * as reasoning parts. Each part's {@code thoughtSignature} is kept in its {@code metadata} and sent
 * back unchanged, so keep the model's messages as they are when you carry a history forward. Usage
 * counts {@code toolUsePromptTokenCount} (tool-use prompts, such as search results) as input
 * tokens, together with {@code promptTokenCount}.
 *
 * <p>Errors keep the API's message: HTTP 400 is {@code INVALID_ARGUMENT}, 401 {@code
 * UNAUTHENTICATED}, 403 {@code PERMISSION_DENIED}, 404 {@code NOT_FOUND}, 429 {@code
 * RESOURCE_EXHAUSTED} with {@code details.retryAfterSeconds}, 5xx and network failures {@code
 * UNAVAILABLE}. A 200 answer that is not JSON (a proxy's page, an event cut short) is {@code
 * UNAVAILABLE} too. A call that outlives its timeout, or whose answer stalls for longer than the
 * idle timeout, is {@code DEADLINE_EXCEEDED}. Cancelling the context's {@link
 * dev.baton.core.Cancellation}, or interrupting the calling thread, aborts the HTTP call with
 * {@code CANCELLED}.
 */
@NullMarked
package dev.baton.plugins.googleai;

import org.jspecify.annotations.NullMarked;
