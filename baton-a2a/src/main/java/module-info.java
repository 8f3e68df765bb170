/**
 * The Agent2Agent protocol (A2A 0.3) for Baton: Baton agents served as A2A agents on {@code
 * baton-server}'s Jetty, and A2A agents as Baton sub-agents. See {@link dev.baton.a2a}.
 */
module dev.baton.a2a {
  requires transitive dev.baton;
  requires transitive dev.baton.server;
  requires org.slf4j;

  exports dev.baton.a2a;

  // Jackson reads and writes the A2A wire records.
  opens dev.baton.a2a.internal.wire to
      tools.jackson.databind;
}
