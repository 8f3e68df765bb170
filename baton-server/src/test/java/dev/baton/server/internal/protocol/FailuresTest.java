package dev.baton.server.internal.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.core.BatonException;
import dev.baton.core.Status;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;

class FailuresTest {
  private final RecordingLogger log = new RecordingLogger();
  private final Failures failures = new Failures(false, log);

  /**
   * A public error whose cause is not for clients (a proxy's error page where JSON was promised)
   * answers with the public message only, and the server's log is where the cause can be read.
   */
  @Test
  void aPublicErrorsNonPublicCauseReachesTheLogAndNotTheClient() {
    BatonException page =
        new BatonException(
            Status.UNKNOWN, "the body began: <html>login at 10.0.0.7</html>", null, false, null);
    BatonException failure =
        new BatonException(
            Status.UNAVAILABLE,
            "gemini answered with something that is not JSON",
            null,
            true,
            page);

    BatonException classified = failures.classify(failure);

    assertThat(failures.wire(classified).message())
        .isEqualTo("gemini answered with something that is not JSON");
    assertThat(log.warnings)
        .singleElement()
        .asString()
        .contains("gemini answered with something that is not JSON")
        .contains("the body began: <html>login at 10.0.0.7</html>");
  }

  @Test
  void aPublicErrorWithNothingHiddenIsTheClientsAndNotLogged() {
    failures.classify(BatonException.of(Status.INVALID_ARGUMENT, "bad input"));

    assertThat(log.warnings).isEmpty();
  }

  /** Records what is logged at WARN, formatted. */
  private static final class RecordingLogger extends LegacyAbstractLogger {
    final List<String> warnings = new ArrayList<>();

    @Override
    protected @Nullable String getFullyQualifiedCallerName() {
      return null;
    }

    @Override
    protected void handleNormalizedLoggingCall(
        Level level,
        @Nullable Marker marker,
        String pattern,
        @Nullable Object[] arguments,
        @Nullable Throwable throwable) {
      if (level == Level.WARN) {
        warnings.add(MessageFormatter.basicArrayFormat(pattern, arguments));
      }
    }

    @Override
    public boolean isTraceEnabled() {
      return true;
    }

    @Override
    public boolean isDebugEnabled() {
      return true;
    }

    @Override
    public boolean isInfoEnabled() {
      return true;
    }

    @Override
    public boolean isWarnEnabled() {
      return true;
    }

    @Override
    public boolean isErrorEnabled() {
      return true;
    }
  }
}
