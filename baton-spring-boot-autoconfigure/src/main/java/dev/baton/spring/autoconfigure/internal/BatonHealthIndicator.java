package dev.baton.spring.autoconfigure.internal;

import dev.baton.Baton;
import dev.baton.agent.SessionStore;
import dev.baton.core.BatonException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * The {@code baton} health: {@code UP} when the session store answers a read, {@code DOWN}
 * otherwise. The details name the store's class and, when it failed, the error's class and Baton
 * status, never its message, which may carry a connection string; and each model plugin's state
 * ({@link ProviderKeys}), never a key. A plugin without its key is a detail, not DOWN: one the
 * application requires fails the start instead. Immutable; safe for concurrent health checks.
 */
public final class BatonHealthIndicator implements HealthIndicator {
  /** A snapshot ID no row has: reading it is the cheapest call every store answers. */
  static final String PROBE_ID = "baton-health-probe";

  private final Baton baton;
  private final SessionStore store;
  private final ProviderKeys providers;

  /**
   * @param baton the instance whose root context the store is read in
   * @param store the store to read
   * @param providers the model plugins to report
   */
  public BatonHealthIndicator(Baton baton, SessionStore store, ProviderKeys providers) {
    this.baton = baton;
    this.store = store;
    this.providers = providers;
  }

  @Override
  public Health health() {
    Map<String, Object> storeDetails = new LinkedHashMap<>();
    storeDetails.put("type", store.getClass().getName());
    boolean up = true;
    try {
      store.getSnapshot(baton.context(), PROBE_ID);
      storeDetails.put("status", "reachable");
    } catch (RuntimeException e) {
      up = false;
      storeDetails.put("status", "unreachable");
      storeDetails.put("error", e.getClass().getName());
      if (e instanceof BatonException baton) {
        storeDetails.put("code", baton.status().name());
      }
    }
    return (up ? Health.up() : Health.down())
        .withDetail("store", storeDetails)
        .withDetail("plugins", providers.states())
        .build();
  }
}
