package dev.baton.spring.autoconfigure;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** Contexts of the Baton and store auto-configurations alone, for tests that need no server. */
final class Contexts {
  /**
   * Blank values for every environment variable a plugin reads, so that the machine's own variables
   * do not add plugins to a test's context; a blank value counts as absent.
   */
  static final String[] NO_PROVIDER_VARIABLES = {
    "GEMINI_API_KEY=",
    "GOOGLE_API_KEY=",
    "OPENAI_API_KEY=",
    "OPENAI_BASE_URL=",
    "ANTHROPIC_API_KEY=",
    "GOOGLE_CLOUD_PROJECT=",
    "GOOGLE_CLOUD_LOCATION=",
    "GENKIT_ENV="
  };

  private Contexts() {}

  /** The Baton and store auto-configurations, with no plugin key in sight. */
  static ApplicationContextRunner baton() {
    return new ApplicationContextRunner()
        .withConfiguration(
            AutoConfigurations.of(BatonAutoConfiguration.class, BatonStoreAutoConfiguration.class))
        .withPropertyValues(NO_PROVIDER_VARIABLES);
  }
}
