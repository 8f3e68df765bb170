package dev.baton.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Baton;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.SessionStore;
import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.core.ActionType;
import dev.baton.testing.ProgrammableModel;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * The test application starts as an application would: agents declared as beans that take the
 * auto-configured {@code Baton} and {@code SessionStore}, and a turn answers through them.
 */
@SpringBootTest(
    classes = TestApplication.class,
    webEnvironment = SpringBootTest.WebEnvironment.NONE,
    properties = {"GEMINI_API_KEY=", "GOOGLE_API_KEY=", "OPENAI_API_KEY=", "OPENAI_BASE_URL="})
class TestApplicationTest {
  @Autowired Baton baton;
  @Autowired Agent assistant;
  @Autowired SessionStore store;
  @Autowired ProgrammableModel testModel;

  @Test
  void agentBeansRunTurnsOnTheAutoConfiguredInstanceAndStore() {
    testModel.respondText("hello back");

    AgentOutput output = assistant.runText("hello");

    assertThat(output.error()).isNull();
    assertThat(output.message().text()).isEqualTo("hello back");
    assertThat(store).isInstanceOf(InMemorySessionStore.class);
    assertThat(store.getSnapshot(baton.context(), output.snapshotId())).isNotNull();
    assertThat(baton.agent(TestApplication.ASSISTANT)).isNotNull();
    assertThat(baton.registry().lookup(ActionType.FLOW, TestApplication.SHOUT)).isPresent();
  }
}
