package dev.baton.mcp.internal.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.core.BatonException;
import dev.baton.core.Status;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpTransportException;
import java.io.IOException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import reactor.core.Exceptions;

/** The SDK's failures as Genkit statuses, with messages that name the client and nothing more. */
class McpErrorsTest {
  private static BatonException rpc(int code) {
    return McpErrors.toBaton("fs", McpError.builder(code).message("bad things").build());
  }

  @Test
  void jsonRpcErrorsMapByCode() {
    assertThat(rpc(McpSchema.ErrorCodes.INVALID_PARAMS).status())
        .isEqualTo(Status.INVALID_ARGUMENT);
    assertThat(rpc(McpSchema.ErrorCodes.INVALID_REQUEST).status())
        .isEqualTo(Status.INVALID_ARGUMENT);
    assertThat(rpc(McpSchema.ErrorCodes.METHOD_NOT_FOUND).status()).isEqualTo(Status.UNIMPLEMENTED);
    assertThat(rpc(McpSchema.ErrorCodes.RESOURCE_NOT_FOUND).status()).isEqualTo(Status.NOT_FOUND);
    assertThat(rpc(McpSchema.ErrorCodes.INTERNAL_ERROR).status()).isEqualTo(Status.INTERNAL);
    assertThat(rpc(-1).status()).isEqualTo(Status.UNKNOWN);
    assertThat(rpc(McpSchema.ErrorCodes.INVALID_PARAMS).getMessage())
        .isEqualTo("MCP server \"fs\" answered error -32602: bad things");
  }

  @Test
  void theServersOwnFailuresAreNotPublic() {
    for (int code : new int[] {McpSchema.ErrorCodes.INTERNAL_ERROR, -1}) {
      BatonException e = rpc(code);
      assertThat(e.isPublic()).isFalse();
      assertThat(e.toPublicErrorInfo().message()).doesNotContain("bad things");
    }
    assertThat(rpc(McpSchema.ErrorCodes.RESOURCE_NOT_FOUND).isPublic()).isTrue();
    assertThat(rpc(McpSchema.ErrorCodes.METHOD_NOT_FOUND).getMessage())
        .isEqualTo("MCP server \"fs\" answered error -32601");
  }

  @Test
  void aPublicAnswerIsCutShort() {
    BatonException e =
        McpErrors.toBaton(
            "fs",
            McpError.builder(McpSchema.ErrorCodes.INVALID_PARAMS)
                .message("x".repeat(5000))
                .build());
    assertThat(e.getMessage()).hasSizeLessThan(300).endsWith("...");
  }

  @Test
  void timeoutsAreDeadlineExceededWhereverTheyAreWrapped() {
    BatonException e =
        McpErrors.toBaton(
            "fs", new CompletionException(Exceptions.propagate(new TimeoutException())));
    assertThat(e.status()).isEqualTo(Status.DEADLINE_EXCEEDED);
    assertThat(e.getMessage()).isEqualTo("MCP server \"fs\" did not answer in time");
  }

  @Test
  void transportFailuresAreUnavailableWithoutTheirInternals() {
    BatonException e =
        McpErrors.toBaton(
            "fs", new McpTransportException("socket closed", new IOException("Broken pipe")));
    assertThat(e.status()).isEqualTo(Status.UNAVAILABLE);
    assertThat(e.getMessage()).isEqualTo("MCP server \"fs\" is unavailable");
    assertThat(e.getCause()).isInstanceOf(McpTransportException.class);
  }

  @Test
  void aBatonExceptionPassesThrough() {
    BatonException original = BatonException.notFound("gone");
    assertThat(McpErrors.toBaton("fs", new CompletionException(original))).isSameAs(original);
  }
}
