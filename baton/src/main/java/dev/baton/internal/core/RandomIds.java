package dev.baton.internal.core;

import java.nio.ByteBuffer;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.UUID;

/**
 * Random UUIDs (version 4) for snapshot, session and tool-call IDs. Snapshot IDs are capabilities
 * (Genkit says to treat them as secrets), so the bits come from a cryptographic generator, but not
 * from {@link UUID#randomUUID()}'s: on Linux that reads {@code /dev/urandom} under one global lock,
 * which thousands of background launches queue on. Here each thread draws from one of a few
 * independently seeded DRBG instances instead.
 *
 * <p>Each ID is drawn when it is made, never from bytes drawn ahead: a JVM restored from a snapshot
 * (CRaC, AWS Lambda SnapStart) reseeds its generators but not bytes a library kept, so every
 * process restored from one snapshot would hand out the same pooled IDs, and sessions would collide
 * in a shared store.
 *
 * <p>Internal: not an API (see the package comment). Thread-safe.
 */
public final class RandomIds {
  private static final SecureRandom[] STRIPES = stripes(Runtime.getRuntime().availableProcessors());

  private RandomIds() {}

  /** A new random UUID as text. */
  public static String uuid() {
    SecureRandom random =
        STRIPES[(int) Long.remainderUnsigned(Thread.currentThread().threadId(), STRIPES.length)];
    byte[] bytes = new byte[16];
    random.nextBytes(bytes);
    bytes[6] = (byte) ((bytes[6] & 0x0f) | 0x40); // version 4
    bytes[8] = (byte) ((bytes[8] & 0x3f) | 0x80); // IETF variant
    ByteBuffer buffer = ByteBuffer.wrap(bytes);
    return new UUID(buffer.getLong(), buffer.getLong()).toString();
  }

  private static SecureRandom[] stripes(int processors) {
    SecureRandom[] stripes = new SecureRandom[Math.max(2, 2 * processors)];
    for (int i = 0; i < stripes.length; i++) {
      try {
        stripes[i] = SecureRandom.getInstance("DRBG");
      } catch (NoSuchAlgorithmException e) {
        stripes[i] = new SecureRandom();
      }
    }
    return stripes;
  }
}
