package dev.baton.spring.autoconfigure;

import dev.baton.Baton;

/**
 * Adjusts the {@link Baton} bean's builder before the instance is built: declare one as a bean to
 * add a plugin that needs code rather than properties, set a clock, a scheduler or a JSON mapper.
 * Customizers run after the auto-configuration has applied the {@code baton.*} properties and the
 * plugins it found, in their {@link org.springframework.core.Ordered order}.
 *
 * <pre>{@code
 * @Bean
 * BatonCustomizer ollama() {
 *   return builder -> builder.plugin(
 *       OpenAICompatible.builder().name("ollama").baseUrl(URI.create("http://localhost:11434/v1")).build());
 * }
 * }</pre>
 */
@FunctionalInterface
public interface BatonCustomizer {
  /** Adjusts the builder; called once, on the thread that creates the {@link Baton} bean. */
  void customize(Baton.Builder builder);
}
