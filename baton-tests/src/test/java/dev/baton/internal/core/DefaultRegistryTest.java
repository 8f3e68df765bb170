package dev.baton.internal.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.core.ActionType;
import dev.baton.core.BatonException;
import dev.baton.core.Registry;
import dev.baton.core.Status;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class DefaultRegistryTest {
  private final DefaultRegistry registry = DefaultRegistry.create(Tracing.noop(), false);

  private static ActionDef<String, String, Void> echo(ActionType type, String name) {
    return ActionDef.builder(type, name, String.class, String.class, Void.class)
        .build((ctx, in, stream) -> in);
  }

  @Test
  void actionsAreKeyedByTypeAndName() {
    registry.register(echo(ActionType.FLOW, "echo"));
    assertThat(registry.lookup("/flow/echo")).isPresent();
    assertThat(registry.lookup(ActionType.FLOW, "echo")).isPresent();
    assertThat(registry.lookup(ActionType.TOOL, "echo")).isEmpty();
  }

  @Test
  void duplicateRegistrationIsRejected() {
    registry.register(echo(ActionType.FLOW, "echo"));
    assertThatThrownBy(() -> registry.register(echo(ActionType.FLOW, "echo")))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.ALREADY_EXISTS))
        .hasMessageContaining("/flow/echo");
    registry.registerValue("middleware", "retry", "descriptor");
    assertThatThrownBy(() -> registry.registerValue("middleware", "retry", "again"))
        .isInstanceOf(BatonException.class);
  }

  @Test
  void childEntriesStayInvisibleToTheParentAndSiblings() {
    registry.register(echo(ActionType.TOOL, "shared"));
    Registry child = DefaultRegistry.child(registry);
    Registry sibling = DefaultRegistry.child(registry);
    child.register(echo(ActionType.TOOL, "private"));

    assertThat(child.lookup(ActionType.TOOL, "shared")).isPresent();
    assertThat(child.lookup(ActionType.TOOL, "private")).isPresent();
    assertThat(registry.lookup(ActionType.TOOL, "private")).isEmpty();
    assertThat(sibling.lookup(ActionType.TOOL, "private")).isEmpty();
    assertThat(child.actions())
        .extracting(a -> a.descriptor().key())
        .containsExactly("/tool/private", "/tool/shared");
  }

  @Test
  void resolversServeNamesOnDemandAndOnlyOnce() {
    AtomicInteger calls = new AtomicInteger();
    registry.addResolver(
        (type, name) -> {
          if (type != ActionType.MODEL || !name.startsWith("acme/")) {
            return null;
          }
          calls.incrementAndGet();
          return echo(ActionType.MODEL, name);
        });
    assertThat(registry.lookup("/model/acme/any-model")).isPresent();
    assertThat(registry.lookup("/model/acme/any-model")).isPresent();
    assertThat(registry.lookup("/model/other/x")).isEmpty();
    assertThat(calls).hasValue(1);
  }

  @Test
  void valuesAreListedByType() {
    registry.registerValue("middleware", "a", 1);
    DefaultRegistry.child(registry).registerValue("middleware", "b", 2);
    assertThat(registry.values("middleware")).containsOnlyKeys("a");
    assertThat(registry.lookupValue("middleware", "a")).contains(1);
  }

  private final AtomicInteger computed = new AtomicInteger();

  /** A derived value that says how many values were computed before it. */
  private String derive(Registry from, Object key) {
    return DefaultRegistry.derived(from, key, r -> "v" + computed.incrementAndGet());
  }

  @Test
  void derivedValuesAreComputedOncePerKeyUntilTheRootChanges() {
    Registry child = DefaultRegistry.child(registry);
    String first = derive(child, List.of("config"));
    // An equal key shares the value, and a child registry derives from its root.
    assertThat(derive(registry, List.of("config"))).isSameAs(first);
    assertThat(derive(registry, List.of("other"))).isEqualTo("v2");

    // What only a child holds is nobody else's to derive from.
    child.register(echo(ActionType.TOOL, "private"));
    assertThat(derive(registry, List.of("config"))).isSameAs(first);

    registry.register(echo(ActionType.AGENT, "late"));
    assertThat(derive(registry, List.of("config"))).isEqualTo("v3");
    registry.registerValue("middleware", "m", 1);
    assertThat(derive(registry, List.of("config"))).isEqualTo("v4");
    assertThat(computed).hasValue(4);
  }

  @Test
  void aNameAResolverServesForTheFirstTimeRenewsDerivedValues() {
    registry.addResolver(
        (type, name) -> name.startsWith("acme/") ? echo(ActionType.MODEL, name) : null);
    assertThat(derive(registry, "key")).isEqualTo("v1");
    assertThat(registry.lookup(ActionType.MODEL, "acme/x")).isPresent();
    assertThat(derive(registry, "key")).isEqualTo("v2");
    // Served again from what the first lookup registered: nothing changed.
    assertThat(registry.lookup(ActionType.MODEL, "acme/x")).isPresent();
    assertThat(derive(registry, "key")).isEqualTo("v2");
  }
}
