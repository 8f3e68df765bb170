package dev.baton.internal.ai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Baton;
import dev.baton.ai.FinishReason;
import dev.baton.ai.GenerateOptions;
import dev.baton.ai.GenerationUsage;
import dev.baton.ai.Hooks;
import dev.baton.ai.Message;
import dev.baton.ai.Middleware;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.Part;
import dev.baton.ai.Role;
import dev.baton.ai.Tool;
import dev.baton.core.ActionContext;
import dev.baton.core.Json;
import dev.baton.testing.ProgrammableModel;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** How usage reaches the listeners of nested scopes, and a generate call's own listeners. */
class UsageListenersTest {
  private final Baton baton = Baton.builder().build();
  private final List<String> heard = new CopyOnWriteArrayList<>();

  private UsageListener named(String name) {
    return usage -> heard.add(name + ":" + usage.totalTokens());
  }

  private static GenerationUsage total(int tokens) {
    return GenerationUsage.builder().totalTokens(tokens).build();
  }

  @Test
  void anAgentHearsItsOwnCallsAndEveryHearAllListenerAroundHearsThemAll() {
    ActionContext budget = UsageListeners.hearAll(baton.context(), named("budget"));
    ActionContext orchestrator = UsageListeners.hearAgent(budget, named("orchestrator"));
    ActionContext sub = UsageListeners.hearAgent(orchestrator, named("sub"));
    ActionContext subBudget = UsageListeners.hearAll(sub, named("subBudget"));
    ActionContext leaf = UsageListeners.hearAgent(subBudget, named("leaf"));

    UsageListeners.report(orchestrator, total(1));
    UsageListeners.report(sub, total(2));
    UsageListeners.report(leaf, total(3));
    UsageListeners.report(subBudget, total(4));
    UsageListeners.report(baton.context(), total(5));

    assertThat(heard)
        .containsExactly(
            "orchestrator:1",
            "budget:1",
            "sub:2",
            "budget:2",
            "leaf:3",
            "subBudget:3",
            "budget:3",
            "subBudget:4",
            "sub:4",
            "budget:4");
  }

  @Test
  void aGenerateCallsListenersHearEveryCallUnderItUntilItEndsAndNoLonger() throws Exception {
    ProgrammableModel model = ProgrammableModel.define(baton.registry(), "pm");
    ProgrammableModel helper = ProgrammableModel.define(baton.registry(), "helper");
    AtomicReference<ActionContext> toolContext = new AtomicReference<>();
    Tool<JsonNode, JsonNode> ask =
        baton.defineJsonTool(
            "ask",
            "Asks the helper",
            null,
            null,
            (ctx, in) -> {
              toolContext.set(ctx.context());
              return Json.nodes()
                  .stringNode(
                      baton
                          .generate(
                              ctx.context(),
                              GenerateOptions.builder().model("helper").prompt("?").build())
                          .text());
            });
    AtomicReference<GenerateRun> watched = new AtomicReference<>();
    Middleware watching =
        Middleware.of(
            "watching",
            context -> {
              GenerateRun run = GenerateRun.of(context).orElseThrow();
              run.listen(named("run"));
              watched.set(run);
              return Hooks.NONE;
            });
    model.respond(
        ModelResponse.of(
                new Message(Role.MODEL, List.of(Part.toolRequest("ask", "a1", Json.object()))),
                FinishReason.STOP)
            .withUsage(total(1)),
        ModelResponse.of(Message.model("ok"), FinishReason.STOP).withUsage(total(2)));
    helper.respond(ModelResponse.of(Message.model("42"), FinishReason.STOP).withUsage(total(40)));

    baton.generate(
        GenerateOptions.builder().model("pm").prompt("go").tools(ask).use(watching).build());

    assertThat(heard).containsExactly("run:1", "run:40", "run:2");
    // Work the call started and that outlives it (a background task, say) is no longer heard.
    CountDownLatch reported = new CountDownLatch(1);
    Thread.ofVirtual()
        .start(
            () -> {
              UsageListeners.report(toolContext.get(), total(99));
              reported.countDown();
            });
    assertThat(reported.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(heard).containsExactly("run:1", "run:40", "run:2");
    assertThatThrownBy(() -> watched.get().listen(named("late")))
        .isInstanceOf(IllegalStateException.class);
  }
}
