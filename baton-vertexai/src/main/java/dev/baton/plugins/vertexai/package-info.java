/**
 * Gemini and Claude models for Baton on Google Cloud's Vertex AI, authorized with Google Cloud
 * credentials (Application Default Credentials by default) through Google's auth library.
 *
 * <pre>{@code
 * Baton baton = Baton.builder()
 *     .plugin(new VertexAI())      // project from GOOGLE_CLOUD_PROJECT, location from
 *     .build();                    // GOOGLE_CLOUD_LOCATION (default "global"), ADC
 *
 * baton.generate(GenerateOptions.builder()
 *     .model("vertexai/gemini-2.5-flash")
 *     .prompt("Why is the sky blue?")
 *     .build());
 * baton.generate(GenerateOptions.builder()
 *     .model("vertexai/claude-sonnet-4-5@20250929")   // Claude, from the Model Garden
 *     .config(Map.of("thinking", Map.of("budgetTokens", 2048)))
 *     .prompt("Why is the sky blue?")
 *     .build());
 *
 * // Explicit settings:
 * VertexAI plugin = VertexAI.builder()
 *     .project("my-project")
 *     .location("us-east5")                           // or "global"
 *     .credentials(GoogleCredentials.fromStream(keyFile))
 *     .maxTokens(8192)                                // Claude's max_tokens when the config sets none
 *     .timeout(Duration.ofMinutes(20))                // whole call; default 10 minutes
 *     .build();
 * }</pre>
 *
 * <p>Configuring it:
 *
 * <ul>
 *   <li>Credentials: {@link com.google.auth.oauth2.GoogleCredentials#getApplicationDefault()
 *       Application Default Credentials} unless the builder gives others: the key file {@code
 *       GOOGLE_APPLICATION_CREDENTIALS} names, the user credentials of {@code gcloud auth
 *       application-default login}, or the metadata server on Google Cloud. They are loaded on the
 *       first call, not when the plugin is built, and a load that failed is tried again on the next
 *       call. Credentials without scopes get {@code
 *       https://www.googleapis.com/auth/cloud-platform}. Google's auth library fetches the access
 *       token, caches it, and refreshes it before it expires; the plugin sends what it returns
 *       ({@code Authorization: Bearer ...}, and {@code x-goog-user-project} for credentials with a
 *       quota project). No OAuth of the plugin's own.
 *   <li>Project: the builder's, else {@code GOOGLE_CLOUD_PROJECT}, else the credentials' own (a
 *       service account key's {@code project_id}). Location: the builder's, else {@code
 *       GOOGLE_CLOUD_LOCATION}, else {@code global}, which serves the current Gemini and Claude
 *       models; a regional location such as {@code us-east5} is served by {@code
 *       <location>-aiplatform.googleapis.com}. {@code baseUrl} replaces the host for a private
 *       endpoint or a proxy.
 * </ul>
 *
 * <p>What maps how:
 *
 * <ul>
 *   <li>A model whose name starts with {@code claude-} is reached at {@code
 *       .../publishers/anthropic/models/<model>:rawPredict} ({@code :streamRawPredict} when the
 *       caller streams), with the Messages API body that {@code baton-anthropic} builds, {@code
 *       anthropic_version: vertex-2023-10-16} in it and no {@code model}. Everything the {@code
 *       dev.baton.plugins.anthropic} package documents for requests, thinking and its signatures,
 *       prompt caching, streaming, stop reasons and {@code pause_turn} holds here too.
 *   <li>Any other model is reached at {@code .../publishers/google/models/<model>:generateContent}
 *       ({@code :streamGenerateContent?alt=sse} when the caller streams), with the body that {@code
 *       baton-googleai} builds: config keys, thought signatures, function call ids, usage and
 *       finish reasons map as the {@code dev.baton.plugins.googleai} package documents.
 * </ul>
 *
 * <p>Errors keep Vertex AI's message and map as the other model plugins' do: HTTP 400 is {@code
 * INVALID_ARGUMENT} (or the status Google's error names), 401 {@code UNAUTHENTICATED}, 403 {@code
 * PERMISSION_DENIED}, 404 {@code NOT_FOUND} (a model not enabled in the project, or not served in
 * the location), 429 {@code RESOURCE_EXHAUSTED} with the retry delay kept for the {@code Retry}
 * middleware, 5xx and network failures {@code UNAVAILABLE}. A Claude stream's {@code error} event
 * maps its type as {@code baton-anthropic} does; a stream that breaks off is {@code UNAVAILABLE},
 * after the chunks that arrived have been passed on. Without credentials or a project a call fails
 * with {@code FAILED_PRECONDITION} and sends nothing. A token endpoint that refuses the credentials
 * is {@code UNAUTHENTICATED}, one that cannot be reached {@code UNAVAILABLE}; neither message is
 * public, and no message holds a token or a key. Loading the credentials and fetching a token run
 * on a virtual thread: cancelling the call's {@link dev.baton.core.Cancellation} stops the wait at
 * once with {@code CANCELLED}, and a wait longer than the timeout is {@code DEADLINE_EXCEEDED}.
 *
 * <p>Not supported: other publishers' models (Llama, Mistral and the like through their
 * OpenAI-style endpoints), tuned models and endpoints of one's own ({@code
 * projects/.../endpoints/...}), Vertex AI's API keys (express mode), the Vertex-only Gemini
 * features that need fields of their own (grounding with Vertex AI Search, {@code labels}), listing
 * models, and embedders. Claude's structured output is off on Vertex AI unless the organization
 * policy allows it, and only some models serve it, so a Claude model never has it asked for: a JSON
 * output schema goes into the prompt instead, and a project that allows it can send {@code
 * output_config} through the config. Vertex AI takes no {@code anthropic-beta} header: a beta is
 * asked for in the body, with the config key {@code anthropic_beta} (a list of beta names), which
 * is sent as it is. Whether a beta is served there is Google's and Anthropic's to say.
 */
@NullMarked
package dev.baton.plugins.vertexai;

import org.jspecify.annotations.NullMarked;
