/**
 * Genkit's developer tools for Baton: {@link dev.baton.devtools.DevTools}, Genkit's reflection API
 * on the JDK's HTTP server.
 */
module dev.baton.devtools {
  requires transitive dev.baton;
  requires transitive dev.baton.otel;
  requires jdk.httpserver;
  // sun.misc.Signal: under genkit start, SIGTERM exits with status 0, as a Genkit JS runtime does.
  requires jdk.unsupported;
  requires org.slf4j;

  exports dev.baton.devtools;
}
