package dev.baton.internal.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

class RandomIdsTest {
  @Test
  void idsAreVersion4UuidsInCanonicalForm() {
    // Several pools' worth, so IDs from a refilled pool are checked too.
    for (int i = 0; i < 100; i++) {
      String id = RandomIds.uuid();
      UUID parsed = UUID.fromString(id);
      assertThat(parsed.toString()).isEqualTo(id);
      assertThat(parsed.version()).isEqualTo(4);
      assertThat(parsed.variant()).isEqualTo(2);
    }
  }

  @Test
  void idsDoNotRepeatWithinAThreadOrAcrossThreads() throws InterruptedException {
    Set<String> ids = ConcurrentHashMap.newKeySet();
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 8; t++) {
      threads.add(
          Thread.ofPlatform()
              .start(
                  () -> {
                    Set<String> own = new HashSet<>();
                    for (int i = 0; i < 1_000; i++) {
                      own.add(RandomIds.uuid());
                    }
                    ids.addAll(own);
                  }));
    }
    for (Thread thread : threads) {
      thread.join();
    }
    assertThat(ids).hasSize(8_000);
  }

  @Test
  void theRandomBitsVaryAcrossTheWholeId() {
    // Every one of the 122 random bits takes both values over a few hundred IDs; a byte copied
    // from the wrong place in the pool, or left at zero, would not.
    long highOnes = 0;
    long highZeros = 0;
    long lowOnes = 0;
    long lowZeros = 0;
    for (int i = 0; i < 500; i++) {
      UUID id = UUID.fromString(RandomIds.uuid());
      highOnes |= id.getMostSignificantBits();
      highZeros |= ~id.getMostSignificantBits();
      lowOnes |= id.getLeastSignificantBits();
      lowZeros |= ~id.getLeastSignificantBits();
    }
    assertThat(highOnes & highZeros).isEqualTo(~0xF000L);
    assertThat(lowOnes & lowZeros).isEqualTo(0x3FFF_FFFF_FFFF_FFFFL);
  }
}
