package dev.baton.spring.autoconfigure.internal;

import dev.baton.Baton;
import dev.baton.ai.Middleware;
import dev.baton.ai.MiddlewareDescriptor;
import dev.baton.ai.Model;
import dev.baton.ai.Tool;
import dev.baton.core.Action;
import dev.baton.core.BatonException;
import dev.baton.core.Registry;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;

/**
 * Registers the {@link Tool}, {@link Model} and {@link MiddlewareDescriptor} beans of the context
 * with the {@link Baton} bean, so that prompts, agents and the Developer UI find them by name.
 *
 * <p>It runs once every singleton exists, not while the {@code Baton} bean is created: tools and
 * models are often beans that take the {@code Baton}, and agents beans that take both, so asking
 * for them earlier would be a cycle. A bean the instance made itself ({@code baton.defineTool},
 * {@code baton.defineModel}) is registered already and is left alone; another of the same name is a
 * conflict, which fails the start with Baton's {@code ALREADY_EXISTS}. Only singletons are read: a
 * prototype or lazy bean is not created for this.
 *
 * <p>A bare {@link Middleware} bean is not registered: middleware is found by name through its
 * descriptor, which says how to make it per use. Such a bean is logged as a warning, once, naming
 * it, since it is most likely meant as a descriptor.
 *
 * <p>Spring calls it once, on the thread that refreshes the context; it keeps no state of its own.
 */
public final class ActionBeans implements SmartInitializingSingleton {
  private static final Logger log = LoggerFactory.getLogger(ActionBeans.class);

  private final ListableBeanFactory beans;
  private final Baton baton;

  /**
   * @param beans where the beans are read
   * @param baton the instance they are registered with
   */
  public ActionBeans(ListableBeanFactory beans, Baton baton) {
    this.beans = Objects.requireNonNull(beans, "beans");
    this.baton = Objects.requireNonNull(baton, "baton");
  }

  // Identity is the question: whether this very bean is what the instance holds.
  @SuppressWarnings("ReferenceEquality")
  @Override
  public void afterSingletonsInstantiated() {
    Registry registry = baton.registry();
    singletons(Tool.class).forEach((name, tool) -> register(registry, name, tool));
    singletons(Model.class).forEach((name, model) -> register(registry, name, model));
    singletons(MiddlewareDescriptor.class)
        .forEach(
            (name, descriptor) -> {
              Optional<Object> known =
                  registry.lookupValue(MiddlewareDescriptor.VALUE_TYPE, descriptor.name());
              if (known.isEmpty() || known.get() != descriptor) {
                registerNamed(name, () -> baton.defineMiddleware(descriptor));
              }
            });
    singletons(Middleware.class)
        .keySet()
        .forEach(
            name ->
                log.warn(
                    "the bean '{}' is a Middleware, which Baton does not register: declare a"
                        + " MiddlewareDescriptor bean to make it available by name",
                    name));
  }

  private <T> Map<String, T> singletons(Class<T> type) {
    return beans.getBeansOfType(type, false, false);
  }

  @SuppressWarnings("ReferenceEquality")
  private static void register(Registry registry, String beanName, Action<?, ?, ?> action) {
    // Identity, not a lookup by key: a lookup that misses asks the plugins' resolvers, which would
    // register a model of theirs under the name first.
    boolean registered = registry.actions().stream().anyMatch(known -> known == action);
    if (!registered) {
      registerNamed(beanName, () -> registry.register(action));
    }
  }

  private static void registerNamed(String beanName, Runnable registration) {
    try {
      registration.run();
    } catch (BatonException e) {
      throw new IllegalStateException(
          "the bean '" + beanName + "' cannot be registered with Baton: " + e.getMessage(), e);
    }
  }
}
