/**
 * Models from any OpenAI-compatible chat completions server, over the JDK {@link
 * java.net.http.HttpClient} (no vendor SDK).
 *
 * <pre>{@code
 * Baton baton = Baton.builder()
 *     .plugin(new OpenAICompatible())                 // OPENAI_API_KEY, OPENAI_BASE_URL
 *     .plugin(OpenAICompatible.builder()
 *         .name("ollama")                             // models are ollama/<model>
 *         .baseUrl(URI.create("http://localhost:11434/v1"))
 *         .build())
 *     .plugin(OpenAICompatible.builder()
 *         .name("groq")
 *         .baseUrl(URI.create("https://api.groq.com/openai/v1"))
 *         .apiKey(System.getenv("GROQ_API_KEY"))
 *         .build())
 *     .build();
 *
 * baton.generate(GenerateOptions.builder()
 *     .model("ollama/llama3.2")
 *     .config(Map.of("temperature", 0.2, "maxOutputTokens", 512))
 *     .prompt("Hello")
 *     .build());
 * }</pre>
 *
 * <p>Config keys: {@code temperature}, {@code maxOutputTokens} (sent as {@code
 * max_completion_tokens} to {@code api.openai.com} and as {@code max_tokens} to any other server;
 * {@link OpenAICompatible.Builder#maxTokensField} chooses otherwise), {@code topP}, {@code topK},
 * {@code stopSequences}, {@code parallelToolCalls}, and any of the server's own options under their
 * own names. Usage reports reasoning tokens apart from output tokens, and cached prompt tokens.
 *
 * <p>Errors keep the server's message: HTTP 400 is {@code INVALID_ARGUMENT}, 401 {@code
 * UNAUTHENTICATED}, 403 {@code PERMISSION_DENIED}, 404 {@code NOT_FOUND}, 429 {@code
 * RESOURCE_EXHAUSTED} with {@code details.retryAfterSeconds} from {@code Retry-After}, 5xx and
 * network failures {@code UNAVAILABLE}. A 200 answer that is not JSON (a proxy's page, an event cut
 * short) is {@code UNAVAILABLE} too. A call that outlives {@link OpenAICompatible.Builder#timeout}
 * (10 minutes by default), or whose answer stalls for longer than {@link
 * OpenAICompatible.Builder#idleTimeout} (2 minutes by default), is {@code DEADLINE_EXCEEDED}.
 * Cancelling the context's {@link dev.baton.core.Cancellation}, or interrupting the calling thread,
 * aborts the HTTP call with {@code CANCELLED}.
 */
@NullMarked
package dev.baton.plugins.openai;

import org.jspecify.annotations.NullMarked;
