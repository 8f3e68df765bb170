package dev.baton.internal.core;

import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.UUID;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Random UUIDs (version 4) for snapshot, session and tool-call IDs. Snapshot IDs are capabilities
 * (the seed says to treat them as secrets), so the bits come from a cryptographic generator, but
 * not from {@link UUID#randomUUID()}'s: on Linux that reads {@code /dev/urandom} under one global
 * lock, which thousands of background launches queue on. Here each thread draws from one of a few
 * independently seeded DRBG instances instead, and each instance is asked for a batch of IDs' worth
 * of bytes at a time: a DRBG request costs a state update besides the bytes it returns, so one
 * request per ID spent most of its time on updates.
 *
 * <p>A batch not yet handed out is future IDs kept in memory; bytes are handed out once each, under
 * their stripe's lock, and the batch is small. Internal: not an API (see the package comment).
 * Thread-safe.
 */
public final class RandomIds {
  private static final int ID_BYTES = 16;
  private static final int BATCH_IDS = 32;
  private static final Stripe[] STRIPES = stripes(Runtime.getRuntime().availableProcessors());

  private RandomIds() {}

  /** One generator and the part of its last batch not yet handed out. */
  private static final class Stripe {
    private final ReentrantLock lock = new ReentrantLock();
    private final SecureRandom random;
    private final byte[] batch = new byte[ID_BYTES * BATCH_IDS]; // guarded by lock
    private int next = batch.length; // guarded by lock; the first byte not yet handed out

    Stripe(SecureRandom random) {
      this.random = random;
    }

    /** The next ID. */
    UUID next() {
      long most;
      long least;
      lock.lock();
      try {
        if (next == batch.length) {
          random.nextBytes(batch);
          next = 0;
        }
        most = longAt(batch, next);
        least = longAt(batch, next + 8);
        next += ID_BYTES;
      } finally {
        lock.unlock();
      }
      most = (most & ~0xf000L) | 0x4000L; // version 4
      least = (least & 0x3fffffffffffffffL) | 0x8000000000000000L; // IETF variant
      return new UUID(most, least);
    }
  }

  /** A new random UUID as text. */
  public static String uuid() {
    Stripe stripe =
        STRIPES[(int) Long.remainderUnsigned(Thread.currentThread().threadId(), STRIPES.length)];
    return stripe.next().toString();
  }

  private static long longAt(byte[] bytes, int offset) {
    long value = 0;
    for (int i = offset; i < offset + 8; i++) {
      value = (value << 8) | (bytes[i] & 0xff);
    }
    return value;
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
}
