package dev.baton.internal.ai;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Baton;
import dev.baton.ai.GenerationUsage;
import dev.baton.core.ActionContext;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** How usage reaches the listeners of nested scopes: agents count their own, hearAll counts all. */
class UsageListenersTest {
  private final Baton baton = Baton.builder().build();
  private final List<String> heard = new CopyOnWriteArrayList<>();

  private UsageListener named(String name) {
    return (model, usage) -> heard.add(name + ":" + usage.totalTokens());
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

    UsageListeners.report(orchestrator, "m", total(1));
    UsageListeners.report(sub, "m", total(2));
    UsageListeners.report(leaf, "m", total(3));
    UsageListeners.report(subBudget, "m", total(4));
    UsageListeners.report(baton.context(), "m", total(5));

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
}
