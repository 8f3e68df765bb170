package dev.baton.spring.autoconfigure.internal;

import dev.baton.Baton;
import dev.baton.core.Action;
import dev.baton.core.ActionDescriptor;
import dev.baton.core.ActionType;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.actuate.info.Info;
import org.springframework.boot.actuate.info.InfoContributor;

/**
 * The {@code baton} entry of {@code /actuator/info}: Baton's version, and the instance's agents
 * (name and description), flows and models, as registered when asked: models that a plugin resolves
 * only on first use are not listed until then.
 */
public final class BatonInfoContributor implements InfoContributor {
  /** Baton's version, which the build writes into the jar; this module is released with Baton. */
  static final String VERSION = readVersion();

  private final Baton baton;

  /** Reports the actions registered with {@code baton} when asked. */
  public BatonInfoContributor(Baton baton) {
    this.baton = baton;
  }

  @Override
  public void contribute(Info.Builder builder) {
    List<Action<?, ?, ?>> actions = baton.registry().actions();
    Map<String, Object> info = new LinkedHashMap<>();
    info.put("version", VERSION);
    info.put(
        "agents",
        actions.stream()
            .filter(action -> action.type() == ActionType.AGENT)
            .map(action -> agent(action.descriptor()))
            .toList());
    info.put("flows", names(actions, ActionType.FLOW));
    info.put("models", names(actions, ActionType.MODEL));
    builder.withDetail("baton", info);
  }

  private static Map<String, String> agent(ActionDescriptor descriptor) {
    Map<String, String> agent = new LinkedHashMap<>();
    agent.put("name", descriptor.name());
    String description = descriptor.description();
    if (description != null) {
      agent.put("description", description);
    }
    return agent;
  }

  private static List<String> names(List<Action<?, ?, ?>> actions, ActionType type) {
    return actions.stream().filter(action -> action.type() == type).map(Action::name).toList();
  }

  private static String readVersion() {
    try (InputStream in = BatonInfoContributor.class.getResourceAsStream("version.txt")) {
      if (in == null) {
        throw new IllegalStateException("version.txt is missing from the jar");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
