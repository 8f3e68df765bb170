package dev.baton.internal.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

class RandomIdsTest {

  @Test
  void idsAreVersionFourUuidsInCanonicalForm() {
    for (int i = 0; i < 1_000; i++) {
      String id = RandomIds.uuid();
      UUID parsed = UUID.fromString(id);
      assertThat(parsed.toString()).isEqualTo(id);
      assertThat(parsed.version()).isEqualTo(4);
      assertThat(parsed.variant()).isEqualTo(2);
    }
  }

  @Test
  void noIdIsHandedOutTwiceAcrossThreadsAndBatches() throws Exception {
    // Many threads share few stripes, each drawing many batches: a batch's bytes must go to one
    // caller each, and every refill must be new bytes.
    Set<String> seen = ConcurrentHashMap.newKeySet();
    List<Thread> threads = new ArrayList<>();
    int perThread = 500;
    for (int t = 0; t < 64; t++) {
      threads.add(
          Thread.ofVirtual()
              .start(
                  () -> {
                    for (int i = 0; i < perThread; i++) {
                      seen.add(RandomIds.uuid());
                    }
                  }));
    }
    for (Thread thread : threads) {
      thread.join();
    }
    assertThat(seen).hasSize(64 * perThread);
  }

  @Test
  void everyRandomBitVaries() {
    // 122 of the 128 bits are random: over a few hundred IDs each of them takes both values, which
    // a mistake in assembling the bytes (a byte dropped, a shift too far) would break.
    long mostOr = 0;
    long mostAnd = -1;
    long leastOr = 0;
    long leastAnd = -1;
    for (int i = 0; i < 500; i++) {
      UUID id = UUID.fromString(RandomIds.uuid());
      mostOr |= id.getMostSignificantBits();
      mostAnd &= id.getMostSignificantBits();
      leastOr |= id.getLeastSignificantBits();
      leastAnd &= id.getLeastSignificantBits();
    }
    assertThat(mostOr & ~mostAnd).isEqualTo(~0xf000L);
    assertThat(leastOr & ~leastAnd).isEqualTo(0x3fffffffffffffffL);
  }
}
