package dev.baton.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.rules.JsonCopyContract;
import dev.baton.rules.ModuleTypes;
import java.util.List;
import org.junit.jupiter.api.Test;

/** This module keeps Baton's rule for JSON in values (see {@link JsonCopyContract}). */
class JsonValuesAreCopiedTest extends JsonCopyContract {
  @Override
  protected List<Class<?>> publicTypes() {
    return ModuleTypes.publicTypes(BatonServer.class);
  }

  /** Keeps the walk honest: it must find the JSON a context provider is handed. */
  @Test
  void theWalkFindsTheRequestsInput() {
    assertThat(checked()).contains(RequestData.class.getName() + ".input");
  }
}
