package dev.baton.spring.autoconfigure.internal;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.util.ClassUtils;

/**
 * Which model plugins the application has, for the health details: a plugin is listed when its
 * module is on the class path and {@code baton.<plugin>.enabled} is not false. It is {@code
 * configured} when the context holds it as a bean (the auto-configuration's, made because its key
 * was found or it is required, or the application's own); else the details say where its key would
 * come from. A plugin the application adds through a {@code BatonCustomizer} is not a bean and
 * cannot be read from the instance, so it shows as {@code "no key found: ..."}, which is true of
 * the properties and environment. These states never make the health DOWN: a required plugin
 * without a key fails the start instead. Keys themselves are never reported. Immutable; safe for
 * concurrent health checks.
 */
public final class ProviderKeys {
  /** What a plugin the context holds reports. */
  public static final String CONFIGURED = "configured";

  private final ProviderSettings settings;
  private final ListableBeanFactory beans;
  private final @Nullable ClassLoader classLoader;

  /**
   * @param settings which plugins are turned off and where each plugin's key comes from
   * @param beans where the plugin beans are looked for
   * @param classLoader where the plugins' modules are looked for
   */
  public ProviderKeys(
      ProviderSettings settings, ListableBeanFactory beans, @Nullable ClassLoader classLoader) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.beans = Objects.requireNonNull(beans, "beans");
    this.classLoader = classLoader;
  }

  /**
   * Each listed plugin by its property name ({@code googleai}, ...): {@link #CONFIGURED}, or {@code
   * "no key found: set baton.anthropic.api-key or ANTHROPIC_API_KEY"}.
   */
  public Map<String, String> states() {
    Map<String, String> states = new LinkedHashMap<>();
    for (ModelProvider provider : ModelProvider.values()) {
      if (settings.disabled(provider)
          || !ClassUtils.isPresent(provider.pluginClass(), classLoader)) {
        continue;
      }
      Class<?> pluginType = ClassUtils.resolveClassName(provider.pluginClass(), classLoader);
      boolean held = beans.getBeanNamesForType(pluginType, true, false).length > 0;
      states.put(
          provider.propertyName(),
          held ? CONFIGURED : "no key found: set " + provider.keySources());
    }
    return states;
  }
}
