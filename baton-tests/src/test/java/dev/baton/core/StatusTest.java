package dev.baton.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class StatusTest {

  @Test
  void everyStatusMapsToTheHttpCodeGenkitServersUse() {
    Map<Status, Integer> expected =
        Map.ofEntries(
            Map.entry(Status.OK, 200),
            Map.entry(Status.CANCELLED, 499),
            Map.entry(Status.UNKNOWN, 500),
            Map.entry(Status.INVALID_ARGUMENT, 400),
            Map.entry(Status.DEADLINE_EXCEEDED, 504),
            Map.entry(Status.NOT_FOUND, 404),
            Map.entry(Status.ALREADY_EXISTS, 409),
            Map.entry(Status.PERMISSION_DENIED, 403),
            Map.entry(Status.RESOURCE_EXHAUSTED, 429),
            Map.entry(Status.FAILED_PRECONDITION, 400),
            Map.entry(Status.ABORTED, 409),
            Map.entry(Status.OUT_OF_RANGE, 400),
            Map.entry(Status.UNIMPLEMENTED, 501),
            Map.entry(Status.INTERNAL, 500),
            Map.entry(Status.UNAVAILABLE, 503),
            Map.entry(Status.DATA_LOSS, 500),
            Map.entry(Status.UNAUTHENTICATED, 401));
    assertThat(Status.values()).hasSize(expected.size());
    for (Status status : Status.values()) {
      assertThat(status.httpStatus()).as(status.name()).isEqualTo(expected.get(status));
    }
  }

  @ParameterizedTest
  @CsvSource({
    "200, OK",
    "400, INVALID_ARGUMENT",
    "401, UNAUTHENTICATED",
    "403, PERMISSION_DENIED",
    "404, NOT_FOUND",
    "429, RESOURCE_EXHAUSTED",
    "499, CANCELLED",
    "501, UNIMPLEMENTED",
    "503, UNAVAILABLE",
    "504, DEADLINE_EXCEEDED",
    "500, INTERNAL",
    "502, INTERNAL",
    "599, INTERNAL",
    "418, UNKNOWN",
    "302, UNKNOWN"
  })
  void httpCodesMapBackToStatuses(int http, Status status) {
    assertThat(Status.fromHttpStatus(http)).isEqualTo(status);
  }

  @Test
  void statusesRoundTripThroughTheirUniqueHttpCodes() {
    for (Status status : Status.values()) {
      long sharing =
          java.util.Arrays.stream(Status.values())
              .filter(s -> s.httpStatus() == status.httpStatus())
              .count();
      if (sharing == 1) {
        assertThat(Status.fromHttpStatus(status.httpStatus())).isEqualTo(status);
      }
    }
  }

  @Test
  void numericCodesAreTheGrpcCanonicalOnes() {
    assertThat(Status.INVALID_ARGUMENT.code()).isEqualTo(3);
    assertThat(Status.FAILED_PRECONDITION.code()).isEqualTo(9);
    assertThat(Status.INTERNAL.code()).isEqualTo(13);
    assertThat(Status.UNAUTHENTICATED.code()).isEqualTo(16);
    for (Status status : Status.values()) {
      assertThat(Status.fromCode(status.code())).contains(status);
    }
    assertThat(Status.fromCode(17)).isEmpty();
  }

  @Test
  void namesParseIgnoringCase() {
    assertThat(Status.fromName("not_found")).contains(Status.NOT_FOUND);
    assertThat(Status.fromName("NOPE")).isEmpty();
  }

  @Test
  void nonPublicErrorsHideTheirMessageFromRemoteClients() {
    BatonException secret = BatonException.internal("db password rejected for user admin", null);
    assertThat(secret.toPublicErrorInfo().message()).doesNotContain("password");
    assertThat(secret.toPublicErrorInfo().status()).isEqualTo("INTERNAL");
    BatonException open = BatonException.notFound("snapshot %s not found", "s1");
    assertThat(open.toPublicErrorInfo().message()).isEqualTo("snapshot s1 not found");
  }

  @Test
  void errorDetailsNeverCarryAStack() {
    var details = Json.object().put("stack", "at Foo.bar").put("traceId", "t1");
    ErrorInfo info = new ErrorInfo("INTERNAL", "boom", details);
    assertThat(Json.write(info)).contains("traceId").doesNotContain("stack");
  }
}
