package dev.baton.otel;

import dev.baton.core.Json;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.sdk.common.InstrumentationScopeInfo;
import io.opentelemetry.sdk.trace.data.EventData;
import io.opentelemetry.sdk.trace.data.LinkData;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.data.StatusData;
import java.util.List;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Writes spans as Genkit's {@code TraceData}, the body of the telemetry server's {@code POST
 * /api/traces}: {@code {traceId, displayName?, startTime?, endTime?, spans: {<spanId>: SpanData}}},
 * times in epoch milliseconds. A span that has not ended has {@code endTime} 0, which the server
 * reads as "started". The trace's own name and times are those of its root span, when the batch
 * holds it.
 *
 * <p>Stateless and thread-safe.
 */
final class TraceData {
  private TraceData() {}

  /** The {@code TraceData} of spans that all belong to {@code traceId}. */
  static ObjectNode of(String traceId, List<SpanData> spans) {
    ObjectNode trace = Json.object();
    trace.put("traceId", traceId);
    ObjectNode bySpanId = Json.object();
    for (SpanData span : spans) {
      ObjectNode written = span(span);
      bySpanId.set(span.getSpanId(), written);
      if (!span.getParentSpanContext().isValid()) {
        trace.put("displayName", span.getName());
        trace.set("startTime", written.get("startTime"));
        trace.set("endTime", written.get("endTime"));
      }
    }
    trace.set("spans", bySpanId);
    return trace;
  }

  private static ObjectNode span(SpanData span) {
    ObjectNode out = Json.object();
    out.put("spanId", span.getSpanId());
    out.put("traceId", span.getTraceId());
    SpanContext parent = span.getParentSpanContext();
    if (parent.isValid()) {
      out.put("parentSpanId", parent.getSpanId());
    }
    out.put("startTime", millis(span.getStartEpochNanos()));
    out.put("endTime", span.hasEnded() ? millis(span.getEndEpochNanos()) : 0);
    out.set("attributes", attributes(span.getAttributes()));
    out.put("displayName", span.getName());
    ArrayNode links = out.putArray("links");
    for (LinkData link : span.getLinks()) {
      ObjectNode written = links.addObject();
      SpanContext context = link.getSpanContext();
      written
          .putObject("context")
          .put("traceId", context.getTraceId())
          .put("spanId", context.getSpanId())
          .put("isRemote", context.isRemote())
          .put("traceFlags", context.getTraceFlags().asByte());
      written.set("attributes", attributes(link.getAttributes()));
      written.put(
          "droppedAttributesCount", link.getTotalAttributeCount() - link.getAttributes().size());
    }
    InstrumentationScopeInfo scope = span.getInstrumentationScopeInfo();
    ObjectNode library = out.putObject("instrumentationLibrary").put("name", scope.getName());
    if (scope.getVersion() != null) {
      library.put("version", scope.getVersion());
    }
    if (scope.getSchemaUrl() != null) {
      library.put("schemaUrl", scope.getSchemaUrl());
    }
    out.put("spanKind", span.getKind().name());
    out.putObject("sameProcessAsParentSpan").put("value", !parent.isRemote());
    out.set("status", status(span.getStatus()));
    ArrayNode events = out.putObject("timeEvents").putArray("timeEvent");
    for (EventData event : span.getEvents()) {
      ObjectNode written = events.addObject();
      written.put("time", millis(event.getEpochNanos()));
      written
          .putObject("annotation")
          .put("description", event.getName())
          .set("attributes", attributes(event.getAttributes()));
    }
    return out;
  }

  /** Genkit reads OpenTelemetry JS's codes: 0 unset, 1 ok, 2 error. */
  private static ObjectNode status(StatusData status) {
    ObjectNode out = Json.object();
    out.put(
        "code",
        switch (status.getStatusCode()) {
          case UNSET -> 0;
          case OK -> 1;
          case ERROR -> 2;
        });
    if (!status.getDescription().isEmpty()) {
      out.put("message", status.getDescription());
    }
    return out;
  }

  private static ObjectNode attributes(Attributes attributes) {
    ObjectNode out = Json.object();
    attributes.forEach((key, value) -> out.set(key.getKey(), Json.toTree(value(key, value))));
    return out;
  }

  private static Object value(AttributeKey<?> key, Object value) {
    // Arrays and scalars map to JSON as they are; anything else is written as its text.
    return switch (key.getType()) {
      case STRING, BOOLEAN, LONG, DOUBLE, STRING_ARRAY, BOOLEAN_ARRAY, LONG_ARRAY, DOUBLE_ARRAY ->
          value;
      default -> String.valueOf(value);
    };
  }

  private static double millis(long epochNanos) {
    return epochNanos / 1e6;
  }
}
