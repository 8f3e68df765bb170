package dev.baton.spring.autoconfigure.internal;

import dev.baton.Baton;
import dev.baton.core.Plugin;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.springframework.util.ClassUtils;

/**
 * Which model plugins the application has, for the health details. A plugin is {@code configured}
 * when the {@code Baton} instance was built with one of its type, however it was added: the
 * auto-configuration's (made because its key was found or it is required), a plugin bean of the
 * application's, or one a {@code BatonCustomizer} added ({@code OpenAICompatible.ollama()}, say).
 * Otherwise a plugin whose module is on the class path and whose {@code baton.<plugin>.enabled} is
 * not false is listed with where its key would come from. These states never make the health DOWN:
 * a required plugin without a key fails the start instead. Keys themselves are never reported.
 * Immutable; safe for concurrent health checks.
 */
public final class ProviderKeys {
  /** What a plugin the context holds reports. */
  public static final String CONFIGURED = "configured";

  private final ProviderSettings settings;
  private final Baton baton;
  private final @Nullable ClassLoader classLoader;

  /**
   * @param settings which plugins are turned off and where each plugin's key comes from
   * @param baton the instance whose plugins are reported
   * @param classLoader where the plugins' modules are looked for
   */
  public ProviderKeys(ProviderSettings settings, Baton baton, @Nullable ClassLoader classLoader) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.baton = Objects.requireNonNull(baton, "baton");
    this.classLoader = classLoader;
  }

  /**
   * Each listed plugin by its property name ({@code googleai}, ...): {@link #CONFIGURED}, or {@code
   * "no key found: set baton.anthropic.api-key or ANTHROPIC_API_KEY"}.
   */
  public Map<String, String> states() {
    Map<String, String> states = new LinkedHashMap<>();
    for (ModelProvider provider : ModelProvider.values()) {
      if (!ClassUtils.isPresent(provider.pluginClass(), classLoader)) {
        continue;
      }
      Class<?> pluginType = ClassUtils.resolveClassName(provider.pluginClass(), classLoader);
      if (has(pluginType)) {
        states.put(provider.propertyName(), CONFIGURED);
      } else if (!settings.disabled(provider)) {
        states.put(provider.propertyName(), "no key found: set " + provider.keySources());
      }
    }
    return states;
  }

  private boolean has(Class<?> pluginType) {
    for (Plugin plugin : baton.plugins()) {
      if (pluginType.isInstance(plugin)) {
        return true;
      }
    }
    return false;
  }
}
