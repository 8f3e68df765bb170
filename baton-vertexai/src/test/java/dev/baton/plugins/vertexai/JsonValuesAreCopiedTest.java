package dev.baton.plugins.vertexai;

import dev.baton.rules.JsonCopyContract;
import dev.baton.rules.ModuleTypes;
import java.util.List;

/** This module keeps Baton's rule for JSON in values (see {@link JsonCopyContract}). */
class JsonValuesAreCopiedTest extends JsonCopyContract {
  @Override
  protected List<Class<?>> publicTypes() {
    return ModuleTypes.publicTypes(VertexAI.class);
  }
}
