package dev.baton.internal.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class LosslessBodyStreamTest {
  private final LosslessBodyStream stream = new LosslessBodyStream();
  private final AtomicLong requested = new AtomicLong();
  private final AtomicBoolean cancelled = new AtomicBoolean();

  private void subscribe() {
    stream.onSubscribe(
        new Flow.Subscription() {
          @Override
          public void request(long n) {
            requested.addAndGet(n);
          }

          @Override
          public void cancel() {
            cancelled.set(true);
          }
        });
  }

  private static List<ByteBuffer> bytes(String... pieces) {
    return Arrays.stream(pieces)
        .map(p -> ByteBuffer.wrap(p.getBytes(StandardCharsets.UTF_8)))
        .toList();
  }

  private static String readAll(InputStream in, int upTo) throws IOException {
    return new String(in.readNBytes(upTo), StandardCharsets.UTF_8);
  }

  @Test
  void bytesReceivedBeforeAFailureAreReadBeforeIt() throws IOException {
    subscribe();
    String received = "data: one\n\ndata: {\"error\": 1}\n\n";
    stream.onNext(bytes(received.substring(0, 11), received.substring(11)));
    IOException reset = new IOException("connection reset");
    stream.onError(reset);

    assertThat(readAll(stream, received.length())).isEqualTo(received);
    assertThatThrownBy(stream::read).isInstanceOf(IOException.class).hasCause(reset);
  }

  @Test
  void aCompleteBodyEndsAfterItsBytes() throws IOException {
    subscribe();
    stream.onNext(bytes("ab", "", "c"));
    stream.onNext(List.of());
    stream.onNext(bytes("d"));
    stream.onComplete();

    assertThat(new String(stream.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("abcd");
    assertThat(stream.read()).isEqualTo(-1);
  }

  @Test
  void requestsNothingBeforeTheFirstReadThenABoundedNumberAndOneMoreForEachDeliveryRead()
      throws IOException {
    subscribe();
    assertThat(requested).hasValue(0);

    stream.onNext(bytes("ab", "cd"));
    stream.onNext(bytes("ef"));
    assertThat(stream.read(new byte[3])).isEqualTo(2);
    assertThat(requested).hasValue(LosslessBodyStream.MAX_QUEUED);
    assertThat(stream.read(new byte[3])).isEqualTo(2);
    assertThat(requested).hasValue(LosslessBodyStream.MAX_QUEUED + 1);
    assertThat(stream.read(new byte[3])).isEqualTo(2);
    assertThat(requested).hasValue(LosslessBodyStream.MAX_QUEUED + 2);
  }

  @Test
  void aReadBeforeTheSubscriptionAsksForBytesOnceItArrives() throws Exception {
    CompletableFuture<Integer> read = new CompletableFuture<>();
    Thread reader = Thread.ofVirtual().start(() -> read.complete(readOne()));
    await().until(() -> reader.getState() == Thread.State.WAITING);

    subscribe();
    await().until(() -> requested.get() == LosslessBodyStream.MAX_QUEUED);
    stream.onNext(bytes("x"));

    assertThat(read.get(10, TimeUnit.SECONDS)).isEqualTo('x');
  }

  private int readOne() {
    try {
      return stream.read();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void aReaderWaitsForTheNextDelivery() throws Exception {
    subscribe();
    CompletableFuture<Integer> read = CompletableFuture.supplyAsync(this::readOne);

    stream.onNext(bytes("x"));

    assertThat(read.get(10, TimeUnit.SECONDS)).isEqualTo('x');
  }

  @Test
  void closeCancelsAndFailsABlockedRead() throws Exception {
    subscribe();
    CompletableFuture<Throwable> failure = new CompletableFuture<>();
    Thread reader =
        Thread.ofVirtual()
            .start(
                () -> {
                  try {
                    stream.read();
                  } catch (IOException e) {
                    failure.complete(e);
                  }
                });
    await().until(() -> reader.getState() == Thread.State.WAITING);

    stream.close();

    assertThat(failure.get(10, TimeUnit.SECONDS)).hasMessage("closed");
    assertThat(cancelled).isTrue();
  }

  @Test
  void closeDropsWhatIsQueued() {
    subscribe();
    stream.onNext(bytes("dropped"));

    stream.close();

    assertThatThrownBy(stream::read).isInstanceOf(IOException.class).hasMessage("closed");
    assertThat(stream.available()).isZero();
  }

  @Test
  void aSubscriptionAfterCloseIsCancelled() {
    stream.close();

    subscribe();

    assertThat(cancelled).isTrue();
    assertThat(requested).hasValue(0);
  }

  @Test
  void anInterruptedReadThrowsAndKeepsTheFlag() throws Exception {
    subscribe();
    CompletableFuture<Boolean> stillInterrupted = new CompletableFuture<>();
    Thread reader =
        Thread.ofVirtual()
            .start(
                () -> {
                  try {
                    stream.read();
                  } catch (InterruptedIOException e) {
                    stillInterrupted.complete(Thread.currentThread().isInterrupted());
                  } catch (IOException e) {
                    stillInterrupted.completeExceptionally(e);
                  }
                });
    await().until(() -> reader.getState() == Thread.State.WAITING);

    reader.interrupt();

    assertThat(stillInterrupted.get(10, TimeUnit.SECONDS)).isTrue();
  }
}
