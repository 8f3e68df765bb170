package dev.baton.internal.core;

import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.UUID;

/**
 * Random UUIDs (version 4) for snapshot, session and tool-call IDs. Snapshot IDs are capabilities
 * (the seed says to treat them as secrets), so the bits come from a cryptographic generator, but
 * not from {@link UUID#randomUUID()}'s: on Linux that reads {@code /dev/urandom} under one global
 * lock, which thousands of background launches queue on. Here each thread draws from one of a few
 * independently seeded DRBG instances instead.
 *
 * <p>Each instance is asked for sixteen IDs' worth of bits at a time: a DRBG call costs a few
 * hashes whatever its length besides the output's own, and a young process runs that code
 * interpreted, so one call per ID cost most of what a turn's IDs cost. The bits not yet handed out
 * wait in the heap beside the generator's state, which predicts them anyway.
 *
 * <p>Internal: not an API (see the package comment). Thread-safe.
 */
public final class RandomIds {
  private static final int UUID_BYTES = 16;
  private static final int POOL_BYTES = 16 * UUID_BYTES;

  private static final Stripe[] STRIPES = stripes(Runtime.getRuntime().availableProcessors());

  private RandomIds() {}

  /** A new random UUID as text. */
  public static String uuid() {
    Stripe stripe =
        STRIPES[(int) Long.remainderUnsigned(Thread.currentThread().threadId(), STRIPES.length)];
    return stripe.next().toString();
  }

  private static Stripe[] stripes(int processors) {
    Stripe[] stripes = new Stripe[Math.max(2, 2 * processors)];
    for (int i = 0; i < stripes.length; i++) {
      SecureRandom random;
      try {
        random = SecureRandom.getInstance("DRBG");
      } catch (NoSuchAlgorithmException e) {
        random = new SecureRandom();
      }
      stripes[i] = new Stripe(random);
    }
    return stripes;
  }

  /** One generator and the bits it drew that are not yet IDs. */
  private static final class Stripe {
    private final SecureRandom random;
    private final byte[] pool = new byte[POOL_BYTES];
    private int next = POOL_BYTES;

    Stripe(SecureRandom random) {
      this.random = random;
    }

    synchronized UUID next() {
      if (next == POOL_BYTES) {
        random.nextBytes(pool);
        next = 0;
      }
      long high = bigEndianLong(next);
      long low = bigEndianLong(next + 8);
      next += UUID_BYTES;
      high = (high & ~0xF000L) | 0x4000L; // version 4
      low = (low & 0x3FFF_FFFF_FFFF_FFFFL) | 0x8000_0000_0000_0000L; // IETF variant
      return new UUID(high, low);
    }

    private long bigEndianLong(int from) {
      long value = 0;
      for (int i = from; i < from + 8; i++) {
        value = (value << 8) | (pool[i] & 0xFF);
      }
      return value;
    }
  }
}
