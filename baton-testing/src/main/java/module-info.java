/**
 * Baton's testing kit: a programmable model, fake time, Genkit's conformance runner and tools, and
 * contract test kits for session stores and model plugins.
 */
module dev.baton.testing {
  requires transitive dev.baton;
  requires transitive org.junit.jupiter.api;
  requires transitive org.junit.jupiter.params;
  // SnapshotFixtures.assertFailsWith takes AssertJ's ThrowingCallable, and FakeHttpServer's
  // recorded requests carry java.net.http's HttpHeaders.
  requires transitive org.assertj.core;
  requires transitive java.net.http;
  requires awaitility;
  requires tools.jackson.dataformat.yaml;

  exports dev.baton.testing;

  // JUnit runs the contract kits' test and lifecycle methods in the subclasses users write.
  opens dev.baton.testing to
      org.junit.platform.commons,
      tools.jackson.databind;
}
