package dev.baton.samples.springboot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.samples.basicagents.DemoModel;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AgentModelTest {
  private static final Map<String, String> DEFAULTS = new LinkedHashMap<>();

  static {
    DEFAULTS.put("googleai", "googleai/gemini-flash-latest");
    DEFAULTS.put("anthropic", "anthropic/claude-sonnet-4-5");
  }

  @Test
  void aNamedModelWinsOverTheProviders() {
    assertThat(choose(" openai/gpt-4o ", "googleai"))
        .isEqualTo(new AgentModel("openai/gpt-4o", false));
  }

  @Test
  void theFirstConfiguredProviderInTheListedOrderGivesTheModel() {
    assertThat(choose("", "anthropic", "googleai"))
        .isEqualTo(new AgentModel("googleai/gemini-flash-latest", false));
  }

  @Test
  void withNoProviderTheDemoModelAnswers() {
    assertThat(choose(null, "devtools")).isEqualTo(new AgentModel(DemoModel.NAME, true));
  }

  private static AgentModel choose(String model, String... plugins) {
    return AgentModel.choose(new AgentModel.SampleProperties(model, DEFAULTS), List.of(plugins));
  }
}
