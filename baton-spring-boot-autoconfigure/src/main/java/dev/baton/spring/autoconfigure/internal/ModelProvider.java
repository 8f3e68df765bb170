package dev.baton.spring.autoconfigure.internal;

/** The model plugins the auto-configuration adds when they are on the class path. */
public enum ModelProvider {
  /** {@code baton-googleai}, the Gemini API. */
  GOOGLE_AI,
  /** {@code baton-openai}, OpenAI and compatible servers. */
  OPENAI,
  /** {@code baton-anthropic}, Claude. */
  ANTHROPIC,
  /** {@code baton-vertexai}, Vertex AI. */
  VERTEX_AI
}
