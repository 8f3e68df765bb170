package dev.baton.middleware.budget;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentFinishReason;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.ai.GenerationUsage;
import dev.baton.ai.InlinePrompt;
import dev.baton.ai.Middleware;
import dev.baton.ai.MiddlewareDescriptor;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Budget's configuration: the checks of B1 to B4, and JSON config by name. */
class BudgetConfigTest extends BudgetTestSupport {

  @Test
  @DisplayName("B1 a limit must cap something: empty, all-zero and negative limits are rejected")
  void aLimitMustCapSomething() {
    Map<GenerationUsage, String> rejected =
        Map.of(
            GenerationUsage.EMPTY,
            "budget: the limit must set at least one non-zero field",
            GenerationUsage.builder().totalTokens(0).custom(Map.of("cost", 0.0)).build(),
            "budget: the limit must set at least one non-zero field",
            GenerationUsage.builder().inputTokens(-1).build(),
            "budget: limit.inputTokens must not be negative, got -1",
            GenerationUsage.builder().custom(Map.of("cost", -0.5)).build(),
            "budget: limit.custom.cost must not be negative, got -0.5");
    rejected.forEach(
        (limit, message) ->
            assertThatThrownBy(() -> Budget.perRun(limit).newHooks(baton.context()))
                .isInstanceOfSatisfying(
                    BatonException.class,
                    e -> assertThat(e.status()).isEqualTo(Status.INVALID_ARGUMENT))
                .hasMessage(message));
    assertThatThrownBy(() -> generate(Budget.perRun(GenerationUsage.EMPTY)))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.INVALID_ARGUMENT))
        .hasMessage(
            "failed to build middleware \"genkit-middleware-exp/budget\": budget: the limit must"
                + " set at least one non-zero field");
    assertThat(model.calls()).isZero();
  }

  @Test
  @DisplayName("B2 the scope defaults to the run, in Java and in JSON")
  void theScopeDefaultsToTheRun() {
    assertThat(new Budget(total(10), null, false).scope()).isEqualTo(BudgetScope.RUN);
    assertThat(Budget.perRun(total(10)).scope()).isEqualTo(BudgetScope.RUN);
    assertThat(byName("{\"limit\": {\"totalTokens\": 10}}")).isEqualTo(capTotal(10));
  }

  @Test
  @DisplayName("B3 a session scope needs a server-managed agent")
  void aSessionScopeNeedsAServerManagedAgent() {
    Budget perSession = Budget.perSession(total(100));
    assertThatThrownBy(() -> generate(perSession))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.FAILED_PRECONDITION))
        .hasMessageContaining("a session-scoped budget needs a server-managed agent");

    Agent clientManaged = agent("client", AgentOptions.DEFAULTS, perSession);
    AgentOutput refused = clientManaged.runText("hi");
    assertThat(refused.finishReason()).isEqualTo(AgentFinishReason.FAILED);
    assertThat(refused.error().statusCode()).isEqualTo(Status.FAILED_PRECONDITION);

    model.respond(answer("hello", total(5)));
    Agent serverManaged =
        agent(
            "server",
            AgentOptions.builder().sessionStore(InMemorySessionStore.create()).build(),
            perSession);
    assertThat(serverManaged.runText("hi").text()).isEqualTo("hello");
  }

  @Test
  @DisplayName("B4 a session-scoped budget cannot interrupt")
  void aSessionScopedBudgetCannotInterrupt() {
    Budget pausing = Budget.perSession(total(100)).withInterrupt(true);
    Agent serverManaged =
        agent(
            "server",
            AgentOptions.builder().sessionStore(InMemorySessionStore.create()).build(),
            pausing);

    AgentOutput refused = serverManaged.runText("hi");

    assertThat(refused.finishReason()).isEqualTo(AgentFinishReason.FAILED);
    assertThat(refused.error().statusCode()).isEqualTo(Status.INVALID_ARGUMENT);
    assertThat(refused.error().message()).contains("a session-scoped budget cannot interrupt");
    assertThat(model.calls()).isZero();
  }

  @Test
  void jsonConfigByNameReadsTheSeedsFieldNames() {
    assertThat(
            byName(
                """
                {"limit": {"totalTokens": 1000, "thoughtsTokens": 50, "custom": {"cost": 0.5}},
                 "scope": "session", "interrupt": false}
                """))
        .isEqualTo(
            Budget.perSession(
                GenerationUsage.builder()
                    .totalTokens(1000)
                    .thoughtsTokens(50)
                    .custom(Map.of("cost", 0.5))
                    .build()));
    assertThat(byName("{\"limit\": {\"inputTokens\": 1}, \"interrupt\": true}").interrupt())
        .isTrue();
    assertThatThrownBy(() -> byName("{\"limit\": {\"inputTokens\": 1}, \"scope\": \"turn\"}"))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.INVALID_ARGUMENT))
        .hasMessageContaining("unknown budget scope \"turn\"");
    MiddlewareDescriptor descriptor = MiddlewareDescriptor.lookup(baton.registry(), Budget.NAME);
    assertThat(descriptor.configSchema().path("properties").propertyNames())
        .containsExactlyInAnyOrder("limit", "scope", "interrupt");
    assertThat(descriptor.configSchema().path("properties").path("scope").path("enum"))
        .isEqualTo(Json.parse("[\"run\", \"session\"]"));
    assertThat(Json.toTree(capTotal(5)))
        .isEqualTo(
            Json.parse("{\"limit\":{\"totalTokens\":5},\"scope\":\"run\",\"interrupt\":false}"));
  }

  @Test
  void aGenerateRequestUsesItByName() {
    model.respond(calls(total(50), echoCall("e1")), answer("never", total(1)));

    assertThatThrownBy(
            () ->
                baton.generate(
                    options(
                            MiddlewareDescriptor.lookup(baton.registry(), Budget.NAME)
                                .create(Json.parse("{\"limit\": {\"totalTokens\": 50}}")))
                        .build()))
        .isInstanceOf(dev.baton.middleware.budget.BudgetExceededException.class);
    assertThat(model.calls()).isEqualTo(1);
  }

  private Budget byName(String config) {
    return (Budget)
        MiddlewareDescriptor.lookup(baton.registry(), Budget.NAME).create(Json.parse(config));
  }

  private Agent agent(String name, AgentOptions options, Middleware... use) {
    return baton.defineAgent(
        name, InlinePrompt.builder().model("pm").system("Be brief.").use(use).build(), options);
  }
}
