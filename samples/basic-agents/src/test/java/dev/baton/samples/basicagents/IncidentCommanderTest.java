package dev.baton.samples.basicagents;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Baton;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentFinishReason;
import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SessionState;
import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.ai.Message;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The demo commander works out the incident in hand once for every step of a turn (the service the
 * request names, else the one named before) and reports only what was found after the request that
 * named it. These sessions hold a turn whose investigations never started, as when a launch fails
 * before anything is waited for.
 */
class IncidentCommanderTest {
  private final Baton baton = Baton.builder().experimental().build();
  private final InMemorySessionStore store = InMemorySessionStore.create();
  private final ByteArrayOutputStream terminal = new ByteArrayOutputStream();
  private final Agent commander;

  IncidentCommanderTest() {
    DemoModel.define(baton);
    Console console = new Console(new PrintStream(terminal, true, StandardCharsets.UTF_8), false);
    commander =
        new IncidentRoom(console::line, Duration.ofMillis(1)).define(baton, DemoModel.NAME, store);
  }

  @Test
  void aFollowUpInvestigatesTheIncidentNamedBeforeAtEveryStep() {
    String session = newSession();
    addTurn(session, "checkout-api is throwing 500s", "The investigations could not start.");

    AgentOutput output = commander.runText("Any update?", AgentInit.ofSession(session));

    assertThat(output.isFailed()).as("%s", output.error()).isFalse();
    assertThat(terminal.toString(StandardCharsets.UTF_8))
        .contains("[status] Investigating checkout-api: log scan and deploy audit started.")
        .doesNotContain("the service");
    assertThat(output.text())
        .startsWith(
            "Incident summary for checkout-api: Failure signature for checkout-api: 12:01:07 ERROR");
  }

  @Test
  void aFollowUpReportsNoFindingsOfAnEarlierIncidentAsTheCurrentOnes() {
    AgentOutput first = commander.runText("checkout-api is throwing 500s and customers can't pay");
    String session = Objects.requireNonNull(first.sessionId());
    addTurn(session, "payments-db latency is spiking", "The investigations could not start.");

    AgentOutput output = commander.runText("Any update?", AgentInit.ofSession(session));

    assertThat(output.text())
        .isEqualTo(
            "Incident summary for payments-db: No errors or warnings in the logs of payments-db;"
                + " No recent deploys of payments-db.");
  }

  private String newSession() {
    String session = UUID.randomUUID().toString();
    save(session, null, Instant.now(), List.of());
    return session;
  }

  /** Adds a turn to a session's history: a request, and an answer that started nothing. */
  private void addTurn(String session, String request, String answer) {
    SessionSnapshot latest =
        Objects.requireNonNull(store.getLatestSnapshot(baton.context(), session));
    List<Message> messages = new ArrayList<>(Objects.requireNonNull(latest.state()).messages());
    messages.add(Message.user(request));
    messages.add(Message.model(answer));
    save(session, latest.snapshotId(), latest.createdAt().plusMillis(1), messages);
  }

  private void save(String session, @Nullable String parent, Instant at, List<Message> messages) {
    String id = UUID.randomUUID().toString();
    store.saveSnapshot(
        baton.context(),
        id,
        existing ->
            SessionSnapshot.completed(
                id,
                session,
                parent,
                at,
                AgentFinishReason.STOP,
                SessionState.empty().withMessages(messages)));
  }
}
