package dev.baton.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SseReaderTest {
  private static List<String> events(String stream) throws IOException {
    SseReader reader =
        new SseReader(new ByteArrayInputStream(stream.getBytes(StandardCharsets.UTF_8)));
    List<String> events = new ArrayList<>();
    for (String data = reader.next(); data != null; data = reader.next()) {
      events.add(data);
    }
    return events;
  }

  @Test
  void readsEventsEndedByBlankLinesWithAnyLineEnding() throws IOException {
    assertThat(events("data: one\n\ndata: two\r\n\r\ndata: three\r\rdata:four\n\n"))
        .containsExactly("one", "two", "three", "four");
  }

  @Test
  void joinsMultiLineDataWithNewlines() throws IOException {
    assertThat(events("data: {\"a\":\ndata:  1}\n\n")).containsExactly("{\"a\":\n 1}");
  }

  @Test
  void skipsCommentsOtherFieldsAndEventsWithoutData() throws IOException {
    assertThat(events(": keep-alive\n\nevent: message\nid: 7\nretry: 100\ndata: x\n\n\n\n"))
        .containsExactly("x");
  }

  @Test
  void returnsAnEventLeftOpenAtTheEndOfTheStream() throws IOException {
    assertThat(events("data: first\n\ndata: last")).containsExactly("first", "last");
    assertThat(events("")).isEmpty();
  }

  @Test
  void decodesUtf8() throws IOException {
    assertThat(events("data: 21.5 °C ☀\n\n")).containsExactly("21.5 °C ☀");
  }

  @Test
  void aDataLineWithoutColonAddsAnEmptyLine() throws IOException {
    assertThat(events("data\n\ndata: a\ndata\ndata: b\n\ndata\ndata\n\n"))
        .containsExactly("", "a\n\nb", "\n");
  }

  @Test
  void fieldsThatOnlyStartWithDataAreNotData() throws IOException {
    assertThat(events("database: x\ndatum\ndata:y\n\n")).containsExactly("y");
  }

  @Test
  void stripsOneLeadingByteOrderMark() throws IOException {
    assertThat(events("\uFEFFdata: first\n\n")).containsExactly("first");
    assertThat(events("\uFEFF\uFEFFdata: first\n\ndata: \uFEFFsecond\n\n"))
        .containsExactly("\uFEFFsecond");
  }
}
