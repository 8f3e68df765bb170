package dev.baton.internal.middleware.agents;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.agent.AgentRef;
import dev.baton.middleware.agents.Agents;
import org.junit.jupiter.api.Test;

/** The delegation tools' names under the agents middleware's tool prefix. */
class DelegationSetupTest {
  @Test
  void toolPrefixesFollowTheNilVersusEmptyRule() {
    AgentRef ref = AgentRef.of("researcher");
    assertThat(DelegationSetup.toolName(Agents.builder().agents(ref).build(), "researcher"))
        .isEqualTo("delegate_to_researcher");
    assertThat(
            DelegationSetup.toolName(
                Agents.builder().agents(ref).toolPrefix("ask").build(), "researcher"))
        .isEqualTo("ask_researcher");
    assertThat(
            DelegationSetup.toolName(
                Agents.builder().agents(ref).toolPrefix("").build(), "researcher"))
        .isEqualTo("researcher");
  }
}
