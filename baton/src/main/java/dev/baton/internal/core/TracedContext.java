package dev.baton.internal.core;

import dev.baton.core.Json;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.node.ObjectNode;

/**
 * The action context a run was given, as Genkit records it on the run's root span under {@value
 * #ATTRIBUTE}: Genkit's JSON action context, whose {@code auth} and {@code secrets} entries are
 * replaced by {@code "<redacted>"} (the rest is written as given), as Genkit JS writes it for every
 * action run given a context; {@code {}} for an empty one. The reflection API and a Baton server
 * record it through {@link RootSpanHooks}.
 *
 * <p>Stateless and thread-safe.
 */
public final class TracedContext {
  /** The root span's attribute. */
  public static final String ATTRIBUTE = "genkit:metadata:context";

  /** What a redacted entry reads. */
  public static final String REDACTED = "<redacted>";

  private static final List<String> REDACTED_ENTRIES = List.of("auth", "secrets");
  private static final String NONE = of(Json.object());
  // The auth's entries are never written: an empty object stands in for them.
  private static final String AUTH_ONLY = of(Json.object().set("auth", Json.object()));

  private TracedContext() {}

  /** The attribute's value for a Genkit action context given as JSON. */
  public static String of(ObjectNode context) {
    ObjectNode traced = context.deepCopy();
    for (String entry : REDACTED_ENTRIES) {
      if (traced.has(entry)) {
        traced.put(entry, REDACTED);
      }
    }
    return Json.write(traced);
  }

  /**
   * The attribute's value for a run whose whole context is its auth context ({@code
   * ActionContext.auth()}), as a served request's is: the auth redacted, or {@code {}} for none.
   */
  public static String ofAuth(Map<String, ?> auth) {
    return auth.isEmpty() ? NONE : AUTH_ONLY;
  }
}
