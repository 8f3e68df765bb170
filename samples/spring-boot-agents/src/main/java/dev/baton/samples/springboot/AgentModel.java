package dev.baton.samples.springboot;

import dev.baton.Baton;
import dev.baton.core.Plugin;
import dev.baton.samples.basicagents.DemoModel;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The model the agents talk to, as basic-agents picks it: {@code sample.model} ({@code
 * BATON_MODEL}) when set; else the default model of the first provider the starter configured, in
 * the order of {@code sample.default-models} (the starter adds a provider's plugin when its key is
 * set: {@code GEMINI_API_KEY}, {@code ANTHROPIC_API_KEY}, ...); else basic-agents' scripted demo
 * model, defined here, so the sample answers with no key at all.
 *
 * @param name the model's name, such as {@code googleai/gemini-flash-latest}
 * @param isDemo whether it is the scripted demo model
 */
record AgentModel(String name, boolean isDemo) {

  /**
   * The {@code sample.*} properties.
   *
   * @param model the model every agent uses; blank to pick one by provider
   * @param defaultModels each provider's plugin name and the model used when it is configured
   */
  @ConfigurationProperties("sample")
  record SampleProperties(@Nullable String model, Map<String, String> defaultModels) {}

  @Configuration(proxyBeanMethods = false)
  @EnableConfigurationProperties(SampleProperties.class)
  static class Choice {
    private static final Logger LOG = LoggerFactory.getLogger(AgentModel.class);

    @Bean
    AgentModel agentModel(Baton baton, ObjectProvider<Plugin> plugins, SampleProperties sample) {
      AgentModel model = choose(sample, plugins.orderedStream().map(Plugin::name).toList());
      if (model.isDemo()) {
        DemoModel.define(baton);
        LOG.info(
            "Model: the scripted demo model. Set GEMINI_API_KEY, ANTHROPIC_API_KEY, OPENAI_API_KEY"
                + " or GOOGLE_CLOUD_PROJECT to talk to a real one.");
      } else {
        LOG.info("Model: {}", model.name());
      }
      return model;
    }
  }

  /** The model {@code sample} names, else the first configured provider's, else the demo's. */
  static AgentModel choose(SampleProperties sample, List<String> configured) {
    if (sample.model() != null && !sample.model().isBlank()) {
      return new AgentModel(sample.model().strip(), false);
    }
    return sample.defaultModels().entrySet().stream()
        .filter(provider -> configured.contains(provider.getKey()))
        .findFirst()
        .map(provider -> new AgentModel(provider.getValue(), false))
        .orElse(new AgentModel(DemoModel.NAME, true));
  }
}
