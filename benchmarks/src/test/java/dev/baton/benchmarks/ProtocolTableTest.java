package dev.baton.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ProtocolTableTest {
  private static String run(String impl, double micros, long bytes) {
    return "{\"impl\":\"%s\",\"scenario\":\"toolRound\",\"protocol\":\"cold\",\"warmups\":200,\"calls\":2000,\"micros\":%s,\"bytesPerCall\":%d}"
        .formatted(impl, micros, bytes);
  }

  @Test
  void tabulatesTheMedianOfEachImplementationAndTheRatioOfBatonToEachPeer() {
    String tables =
        ProtocolTable.tables(
            List.of(
                run("baton", 30, 7000),
                run("baton", 10, 9000),
                run("baton", 20, 8000),
                "npm warn: not a result line",
                run("genkit-js", 100, 0),
                run("genkit-js", 60, 0),
                run("genkit-js", 40, 0),
                run("genkit-js", 200, 0)));

    assertThat(tables)
        .contains("### toolRound, cold")
        .contains("| median of | baton | genkit-js | baton / genkit-js |")
        .contains("| processes | 3 | 4 |  |")
        // Baton: 20 of {10, 20, 30}; Genkit JS: (60 + 100) / 2 of {40, 60, 100, 200}.
        .contains("| micros | 20 | 80 | 0.25 |")
        .contains("| bytesPerCall | 8,000 | 0 |  |")
        .doesNotContain("warmups")
        .doesNotContain("calls |");
  }

  @Test
  void aBatonRunWithAnAotCacheIsAColumnOfItsOwn() {
    String aot =
        "{\"impl\":\"baton\",\"scenario\":\"toolRound\",\"protocol\":\"cold\",\"aot\":true,\"micros\":5}";

    String tables =
        ProtocolTable.tables(List.of(run("baton", 20, 8000), aot, run("langchain4j", 40, 9000)));

    assertThat(tables)
        .contains(
            "| median of | baton | baton+aot | langchain4j | baton / langchain4j"
                + " | baton+aot / langchain4j |")
        .contains("| micros | 20 | 5 | 40 | 0.50 | 0.13 |");
  }

  @Test
  void namesThePeersThatDoNotSupportAScenario() {
    String tables =
        ProtocolTable.tables(
            List.of(
                "{\"impl\":\"baton\",\"scenario\":\"longSession\",\"protocol\":\"long\","
                    + "\"turn10Micros\":3.5,\"turn200Micros\":10.25,\"sessionMicros\":1234567}",
                "{\"impl\":\"genkit-js\",\"scenario\":\"longSession\",\"protocol\":\"long\","
                    + "\"unsupported\":true}"));

    assertThat(tables)
        .contains("### longSession, long")
        .contains("| turn10Micros | 3.50 |")
        .contains("| turn200Micros | 10.3 |")
        .contains("| sessionMicros | 1,234,567 |")
        .contains("Unsupported by: genkit-js.");
  }
}
