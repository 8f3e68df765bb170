/**
 * Gemini's {@code generateContent} wire, apart from how it is reached: the request body a {@link
 * dev.baton.ai.ModelRequest} becomes and the answer (whole or streamed) read back as a {@link
 * dev.baton.ai.ModelResponse}. Nothing here knows an address, a key or an auth header, so that
 * another way of reaching Gemini with the same body (Vertex AI, with Google Cloud credentials)
 * reuses it whole. Not part of the API: the module exports it only to {@code dev.baton.vertexai}.
 */
@NullMarked
package dev.baton.plugins.googleai.internal;

import org.jspecify.annotations.NullMarked;
