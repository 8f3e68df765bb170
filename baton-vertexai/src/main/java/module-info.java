/**
 * Gemini and Claude models on Vertex AI, with Google Cloud credentials: {@link
 * dev.baton.plugins.vertexai.VertexAI}.
 */
module dev.baton.vertexai {
  requires transitive dev.baton;
  // The builder takes a GoogleCredentials, which extends the credentials jar's Credentials.
  requires transitive com.google.auth.oauth2;
  requires transitive com.google.auth;
  requires dev.baton.googleai;
  requires dev.baton.anthropic;
  requires java.net.http;

  exports dev.baton.plugins.vertexai;
}
