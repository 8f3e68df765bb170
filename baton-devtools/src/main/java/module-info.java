/**
 * Genkit's developer tools for Baton: {@link dev.baton.devtools.DevTools}, Genkit's reflection API
 * on the JDK's HTTP server.
 */
module dev.baton.devtools {
  requires transitive dev.baton;
  requires transitive dev.baton.otel;
  requires jdk.httpserver;
  requires org.slf4j;

  exports dev.baton.devtools;
}
