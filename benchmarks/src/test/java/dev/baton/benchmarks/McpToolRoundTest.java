package dev.baton.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** A short run of the MCP benchmark: every client makes its calls on both transports. */
class McpToolRoundTest {

  @Test
  void timesEveryClientOnBothTransports() throws Exception {
    requireNode();

    List<McpToolRound.Figures> figures = McpToolRound.run(McpToolRound.peers(), 20, 5, 1);

    assertThat(figures)
        .extracting(McpToolRound.Figures::transport)
        .containsExactly("stdio", "streamable HTTP");
    assertThat(figures)
        .allSatisfy(
            f -> {
              assertThat(f.baton()).isPositive();
              assertThat(f.javaSdk()).isPositive();
              assertThat(f.tsSdk()).isPositive();
            });
    assertThat(McpToolRound.table(figures, 20, 5, 1))
        .contains("| transport | Baton | MCP Java SDK | TypeScript SDK |")
        .contains("| stdio | ")
        .contains("| streamable HTTP | ");
  }

  @Test
  void aRowGivesBatonsCostAboveEachSdk() {
    assertThat(new McpToolRound.Figures("stdio", 350.4, 300, 250.2).row())
        .isEqualTo("| stdio | 350 | 300 | 250 | +100 | +50 |");
  }

  /** The benchmark's Node peers need Node.js: skipped without it, except in CI. */
  private static void requireNode() {
    boolean node;
    try {
      Process version = new ProcessBuilder("node", "--version").redirectErrorStream(true).start();
      version.getInputStream().readAllBytes();
      node = version.waitFor() == 0;
    } catch (Exception e) {
      node = false;
    }
    if (!node && "true".equalsIgnoreCase(System.getenv("CI"))) {
      fail("Node.js is needed for the MCP benchmark's peers (CI=true makes this a failure)");
    }
    Assumptions.assumeTrue(node, "Node.js is needed for the MCP benchmark's peers");
  }
}
