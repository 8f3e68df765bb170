package dev.baton.benchmarks;

import dev.baton.core.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * The median tables of {@code benchmarks/run-protocols}: {@code ProtocolTable <file>...} reads the
 * JSON lines the scenario programs printed (one per process; other lines are skipped) and prints,
 * for each scenario and protocol, a markdown table of the median of every figure, one column per
 * implementation, and the ratio of each Baton column to each peer's. A Baton run with an AOT cache
 * ({@code "aot": true}) is a column of its own, {@code baton+aot}.
 */
public final class ProtocolTable {
  /** Fields that describe the run rather than measure it. */
  private static final Set<String> NOT_FIGURES =
      Set.of("impl", "scenario", "protocol", "aot", "unsupported", "warmups", "calls", "turns");

  private ProtocolTable() {}

  public static void main(String[] args) {
    List<String> lines = new ArrayList<>();
    for (String file : args) {
      try {
        lines.addAll(Files.readAllLines(Path.of(file)));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    System.out.print(tables(lines));
  }

  /** The tables of these lines, in the order their scenarios and protocols first appear. */
  static String tables(List<String> lines) {
    Map<String, Group> groups = new LinkedHashMap<>();
    for (String line : lines) {
      if (!line.startsWith("{")) {
        continue;
      }
      JsonNode run = Json.parse(line);
      String scenario = run.path("scenario").asString();
      String protocol = run.path("protocol").asString();
      groups
          .computeIfAbsent(scenario + " " + protocol, k -> new Group(scenario, protocol))
          .add(run);
    }
    StringBuilder out = new StringBuilder();
    for (Group group : groups.values()) {
      group.appendTo(out);
    }
    return out.toString();
  }

  /** The runs of one scenario on one protocol, by implementation. */
  private static final class Group {
    private final String scenario;
    private final String protocol;
    private final Map<String, List<JsonNode>> runsByImpl = new LinkedHashMap<>();
    private final Set<String> unsupported = new LinkedHashSet<>();
    private final Set<String> figures = new LinkedHashSet<>();

    Group(String scenario, String protocol) {
      this.scenario = scenario;
      this.protocol = protocol;
    }

    void add(JsonNode run) {
      String impl = run.path("impl").asString() + (run.path("aot").asBoolean(false) ? "+aot" : "");
      if (run.path("unsupported").asBoolean(false)) {
        unsupported.add(impl);
        return;
      }
      runsByImpl.computeIfAbsent(impl, k -> new ArrayList<>()).add(run);
      for (var field : run.properties()) {
        if (!NOT_FIGURES.contains(field.getKey()) && field.getValue().isNumber()) {
          figures.add(field.getKey());
        }
      }
    }

    void appendTo(StringBuilder out) {
      out.append("\n### ").append(scenario).append(", ").append(protocol).append("\n\n");
      if (runsByImpl.isEmpty()) {
        out.append("No implementation ran it.\n");
      } else {
        appendTable(out);
      }
      if (!unsupported.isEmpty()) {
        out.append("\nUnsupported by: ").append(String.join(", ", unsupported)).append(".\n");
      }
    }

    private void appendTable(StringBuilder out) {
      List<String> impls = new ArrayList<>(runsByImpl.keySet());
      List<String> batons = impls.stream().filter(i -> i.startsWith("baton")).toList();
      List<String> peers = impls.stream().filter(i -> !i.startsWith("baton")).toList();
      List<String> header = new ArrayList<>();
      header.add("median of");
      header.addAll(impls);
      for (String baton : batons) {
        for (String peer : peers) {
          header.add(baton + " / " + peer);
        }
      }
      row(out, header);
      row(out, header.stream().map(h -> "---").toList());
      List<String> processes = new ArrayList<>();
      processes.add("processes");
      impls.forEach(impl -> processes.add(String.valueOf(runsByImpl.get(impl).size())));
      while (processes.size() < header.size()) {
        processes.add("");
      }
      row(out, processes);
      for (String figure : figures) {
        Map<String, Double> medians = new LinkedHashMap<>();
        for (String impl : impls) {
          List<Double> values = new ArrayList<>();
          for (JsonNode run : runsByImpl.get(impl)) {
            if (run.path(figure).isNumber()) {
              values.add(run.path(figure).asDouble());
            }
          }
          if (!values.isEmpty()) {
            medians.put(impl, median(values));
          }
        }
        List<String> cells = new ArrayList<>();
        cells.add(figure);
        impls.forEach(impl -> cells.add(format(medians.get(impl))));
        for (String baton : batons) {
          for (String peer : peers) {
            Double b = medians.get(baton);
            Double p = medians.get(peer);
            cells.add(
                b == null || p == null || p == 0 ? "" : String.format(Locale.ROOT, "%.2f", b / p));
          }
        }
        row(out, cells);
      }
    }
  }

  /** The middle value, or the mean of the two middle values of an even count. */
  static double median(List<Double> values) {
    List<Double> sorted = values.stream().sorted().toList();
    int middle = sorted.size() / 2;
    return sorted.size() % 2 == 1
        ? sorted.get(middle)
        : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
  }

  /** Three significant figures at most below 1,000; whole numbers with separators above. */
  static String format(Double value) {
    if (value == null) {
      return "";
    }
    double magnitude = Math.abs(value);
    if (magnitude >= 1000) {
      return String.format(Locale.ROOT, "%,.0f", value);
    }
    if (magnitude >= 100 || value == Math.rint(value)) {
      return String.format(Locale.ROOT, "%.0f", value);
    }
    return String.format(Locale.ROOT, magnitude >= 10 ? "%.1f" : "%.2f", value);
  }

  private static void row(StringBuilder out, List<String> cells) {
    out.append("| ").append(String.join(" | ", cells)).append(" |\n");
  }
}
