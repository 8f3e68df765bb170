package dev.baton.server.internal.protocol.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.core.Cancellation;
import dev.baton.internal.core.DefaultRegistry;
import dev.baton.internal.core.Tracing;
import dev.baton.server.internal.protocol.Transport;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.function.BiConsumer;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/** The ends of a live event stream that the client does not choose. */
class StatusEventsTest {
  @Test
  void aStreamPastItsLifetimeEndsSayingSoForTheClientToReconnect() {
    RecordingTransport transport = new RecordingTransport();
    LiveTasks live = new LiveTasks(DefaultRegistry.create(Tracing.noop(), false), Map::of);

    new StatusEvents(
            live, Map.of(), transport, Cancellation.create(), () -> false, 10, Duration.ZERO)
        .run();

    assertThat(transport.status).isEqualTo(200);
    assertThat(transport.sent()).endsWith("event: end\ndata: {\"reason\":\"lifetime\"}\n\n");
    assertThat(transport.ended).isTrue();
  }

  /** A client that reads everything at once. */
  private static final class RecordingTransport implements Transport {
    private final ByteArrayOutputStream written = new ByteArrayOutputStream();
    private int status;
    private boolean ended;

    String sent() {
      return written.toString(StandardCharsets.UTF_8);
    }

    @Override
    public String method() {
      return "GET";
    }

    @Override
    public @Nullable String remoteAddress() {
      return "127.0.0.1";
    }

    @Override
    public @Nullable String query() {
      return null;
    }

    @Override
    public @Nullable String requestHeader(String name) {
      return null;
    }

    @Override
    public void forEachRequestHeader(BiConsumer<String, String> action) {}

    @Override
    public long declaredLength() {
      return 0;
    }

    @Override
    public InputStream body() {
      return InputStream.nullInputStream();
    }

    @Override
    public void watchClient(Runnable onGone) {}

    @Override
    public boolean stopWatching() {
      return false;
    }

    @Override
    public boolean isCommitted() {
      return status != 0;
    }

    @Override
    public void setStatus(int status) {
      this.status = status;
    }

    @Override
    public void setHeader(String name, String value) {}

    @Override
    public void write(byte[] bytes, boolean last) {
      written.writeBytes(bytes);
      ended |= last;
    }

    @Override
    public void finish(byte[] bytes) {
      write(bytes, true);
    }

    @Override
    public void complete(@Nullable Throwable failure, boolean closeConnection) {}
  }
}
